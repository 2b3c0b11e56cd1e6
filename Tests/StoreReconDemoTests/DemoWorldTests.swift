import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo

/// A demo world generated into a fresh temporary folder, removed by `remove()`.
struct GeneratedWorld {
  let root: URL
  let truth: DemoTruth

  init(
    users: Int = 3000, seed: UInt64 = 42, asOf: CivilDate? = nil, realistic: Bool = false,
    allJWS: Bool = false
  ) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storerecon-demo-\(UUID().uuidString)")
    var options = DemoOptions()
    options.users = users
    options.seed = seed
    if let asOf { options.asOf = asOf }
    options.realistic = realistic
    options.allJWS = allJWS
    truth = try DemoWorld.generate(options, into: root.path)
  }

  func data(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }

  /// The file's lines, without the empty one after the final line feed.
  func lines(_ path: String) throws -> [String] {
    let text = String(decoding: try data(path), as: UTF8.self)
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  /// Paths of the Play sales reports.
  var salesFiles: [String] { truth.files.filter { $0.hasPrefix("exports/play/salesreport_") } }
}

/// The JSON object of an Apple line, decoded from a compact JWS when the line is one; `nil` if malformed.
func decodeJSONLine(_ line: String) -> [String: Any]? {
  var bytes = Data(line.utf8)
  if !line.hasPrefix("{") {
    let parts = line.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let payload = Data(base64Encoded: base64) else { return nil }
    bytes = payload
  }
  return (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]
}

/// Splits one CSV row (RFC 4180 quoting, no line breaks inside fields).
func csvFields(_ row: String) -> [String] {
  var fields: [String] = []
  var field = ""
  var quoted = false
  var chars = Array(row)
  chars.append(",")
  var i = 0
  while i < chars.count {
    let c = chars[i]
    if quoted {
      if c == "\"" {
        if i + 1 < chars.count && chars[i + 1] == "\"" {
          field.append("\"")
          i += 1
        } else {
          quoted = false
        }
      } else {
        field.append(c)
      }
    } else if c == "\"" {
      quoted = true
    } else if c == "," {
      fields.append(field)
      field = ""
    } else {
      field.append(c)
    }
    i += 1
  }
  return fields
}

@Suite("Demo world")
struct DemoWorldTests {
  @Test func sameSeedGivesByteIdenticalFiles() throws {
    let a = try GeneratedWorld(users: 600)
    defer { a.remove() }
    let b = try GeneratedWorld(users: 600)
    defer { b.remove() }
    #expect(a.truth.files == b.truth.files)
    #expect(a.truth.planted == b.truth.planted)
    #expect(a.truth.rejectsPerFile == b.truth.rejectsPerFile)
    for path in a.truth.files {
      #expect(try a.data(path) == b.data(path), "\(path) differs between two runs with the same seed")
    }
  }

  @Test func differentSeedGivesDifferentWorld() throws {
    let a = try GeneratedWorld(users: 600, seed: 42)
    defer { a.remove() }
    let b = try GeneratedWorld(users: 600, seed: 43)
    defer { b.remove() }
    #expect(try a.data("exports/apple/transactions.jsonl") != b.data("exports/apple/transactions.jsonl"))
    #expect(try a.data("app/entitlements.csv") != b.data("app/entitlements.csv"))
    #expect(a.truth.planted != b.truth.planted)
  }

  static let seedsAndDates: [(UInt64, CivilDate)] = [
    (1, CivilDate(year: 2026, month: 11, day: 29)), (7, CivilDate(year: 2026, month: 3, day: 15)),
    (99, CivilDate(year: 2027, month: 2, day: 28)), (2026, CivilDate(year: 2026, month: 12, day: 31)),
  ]

  @Test(arguments: seedsAndDates)
  func everySeedAndDateBuildsAConsistentWorld(seed: UInt64, asOf: CivilDate) throws {
    // The generator checks every group against docs/rules.md and throws on a disagreement.
    let world = try GeneratedWorld(users: 2000, seed: seed, asOf: asOf)
    defer { world.remove() }
    let notification = world.truth.planted.filter { $0.kind.hasPrefix("notification_") }
    // 39 planted scenarios (two of them App Store commitment plans, two Play installments plans and four
    // refunds one source shows, present from 1,000 users) and 11 planted web subscriptions (from 1,000
    // users), twice each; and two Stripe webhook events the app never received.
    #expect(world.truth.planted.count - notification.count == 39 * 2 + 11 * 2)
    #expect(world.truth.planted.filter { $0.store == .stripe }.count == 11 * 2 + 2)
    // Each refund one source shows is checked for naming its source.
    #expect(world.truth.refundSources.count == 4 * 2)
    // Two of each notification plant, on top of the refunds, expiries and lock-outs they follow; two
    // lost webhooks per store with a notification history (App Store, Stripe).
    let lost = notification.filter { $0.reason == "never_received" }
    #expect(
      lost.filter { $0.store == .appStore }.count == 2 && lost.filter { $0.store == .stripe }.count == 2)
    #expect(notification.filter { $0.reason == "unprocessed" }.count >= 2)
  }

  @Test func rerunRemovesStaleInputsOfAnEarlierWorld() throws {
    let world = try GeneratedWorld(users: 600)
    defer { world.remove() }
    let stale = world.root.appendingPathComponent("exports/play/salesreport_209901.csv")
    try Data("Order Number\n".utf8).write(to: stale)
    var options = DemoOptions()
    options.users = 600
    let again = try DemoWorld.generate(options, into: world.root.path)
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    #expect(again.files == world.truth.files)
  }

  @Test func tooFewUsersIsAClearError() {
    var options = DemoOptions()
    options.users = 50
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storerecon-demo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(throws: DemoError.self) { try DemoWorld.generate(options, into: root.path) }
  }

  @Test func everyRuleIsPlantedAtLeastTwiceInEveryStoreItAppliesTo() throws {
    let world = try GeneratedWorld(users: 3000)
    defer { world.remove() }
    let expected: [(String, String, [Store])] = [
      ("orphaned_charge", "unclaimed", [.appStore, .play, .stripe]),
      ("orphaned_charge", "locked_out", [.appStore, .play, .stripe]),
      ("free_entitlement", "no_store_record", [.appStore, .play]),
      ("free_entitlement", "sandbox", [.appStore, .play, .stripe]),
      ("free_entitlement", "refunded", [.appStore, .play, .stripe]),
      ("free_entitlement", "superseded", [.play]),
      ("free_entitlement", "store_expired", [.appStore, .play, .stripe]),
      ("free_entitlement", "overextended", [.appStore, .play]),
      ("free_entitlement", "product_mismatch", [.appStore, .play]),
      ("duplicate_claim", "multiple_users", [.appStore, .play, .stripe]),
      ("uncredited_purchase", "not_credited", [.appStore]),
      ("double_credit", "credited_twice", [.appStore]),
      ("double_credit", "over_credited", [.appStore]),
      ("credit_not_reversed", "refund_not_reversed", [.appStore]),
      ("orphan_credit", "unknown_transaction", [.appStore]),
      ("orphan_credit", "sandbox_credit", [.appStore]),
      ("double_billing", "across_stores", [.play, .stripe]),
      ("double_billing", "within_store", [.play]),
      ("notification_unprocessed", "unprocessed", [.appStore]),
      ("notification_not_applied", "revocation_not_applied", [.appStore]),
      ("notification_not_applied", "expiry_not_applied", [.appStore]),
      ("notification_not_applied", "renewal_not_applied", [.appStore]),
      ("notification_missing", "never_received", [.appStore]),
    ]
    for (kind, reason, stores) in expected {
      for store in stores {
        let n = world.truth.planted.filter { $0.kind == kind && $0.reason == reason && $0.store == store }
          .count
        #expect(n >= 2, "\(kind)/\(reason) in \(store.rawValue): \(n)")
      }
    }
    let known = Set(expected.map { "\($0.0)/\($0.1)" })
    #expect(world.truth.planted.allSatisfy { known.contains("\($0.kind)/\($0.reason)") })
    #expect(world.truth.planted == world.truth.planted.sorted())
    #expect(Set(world.truth.planted).count == world.truth.planted.count)
  }

  @Test func truthFileListsEveryPlantedFinding() throws {
    let world = try GeneratedWorld(users: 1000)
    defer { world.remove() }
    let lines = try world.lines(DemoWorld.truthPath)
    #expect(lines.first == "kind,reason,store,chain_key,user_id")
    let rows = lines.dropFirst().map(csvFields)
    #expect(rows.count == world.truth.planted.count)
    for (row, planted) in zip(rows, world.truth.planted) {
      #expect(
        row == [planted.kind, planted.reason, planted.store.rawValue, planted.chainKey, planted.userId])
    }
    for path in world.truth.files {
      #expect(FileManager.default.fileExists(atPath: world.root.appendingPathComponent(path).path), "\(path)")
    }
  }

  @Test func salesReportsHaveTheRealHeaderAndExactAmounts() throws {
    let world = try GeneratedWorld(users: 3000)
    defer { world.remove() }
    let header =
      "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Device Model,Product Title,Product ID,Product Type,SKU ID,Currency of Sale,Item Price,Taxes Collected,Charged Amount,City of Buyer,State of Buyer,Postal Code of Buyer,Country of Buyer,Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,Promotion ID,Coupon Value,Discount Rate,Featured Product ID"
    #expect(world.salesFiles.count >= 10)
    var malformedTotal = 0
    for path in world.salesFiles {
      let lines = try world.lines(path)
      #expect(lines.first == header, "\(path)")
      #expect(csvFields(header).count == 25)
      var malformed = 0
      for row in lines.dropFirst() {
        let f = csvFields(row)
        #expect(f.count == 25, "\(path): \(row)")
        guard f.count == 25, let currency = Currency.named(f[9]),
          let item = try? currency.minor(decimal: f[10]), let tax = try? currency.minor(decimal: f[11]),
          let charged = try? currency.minor(decimal: f[12])
        else {
          malformed += 1
          continue
        }
        #expect(item + tax == charged, "\(row)")
        #expect(f[3] == "Charged" || f[3] == "Refund")
        #expect(
          f[0].range(of: #"^GPA\.\d{4}-\d{4}-\d{4}-\d{5}(\.\.\d+)?$"#, options: .regularExpression) != nil)
      }
      #expect(malformed == world.truth.rejectsPerFile[path] ?? 0, "\(path)")
      malformedTotal += malformed
    }
    #expect(malformedTotal == 2)
  }

  @Test func everyJSONLineParsesExceptThePlantedMalformedOnes() throws {
    let world = try GeneratedWorld(users: 3000)
    defer { world.remove() }
    var jws = 0
    for path in [
      "exports/apple/transactions.jsonl", "exports/play/subscriptions.jsonl", "exports/play/voided.jsonl",
    ] {
      let lines = try world.lines(path)
      #expect(!lines.isEmpty)
      var failed = 0
      for line in lines {
        if !line.hasPrefix("{") { jws += 1 }
        guard let object = decodeJSONLine(line) else {
          failed += 1
          continue
        }
        if path.hasSuffix("transactions.jsonl"), let code = object["currency"] as? String,
          let price = object["price"] as? Int64
        {
          let currency = try #require(Currency.named(code))
          #expect(throws: Never.self) { _ = try currency.minor(milliunits: price) }
        }
      }
      #expect(failed == 1, "\(path)")
      #expect(failed == world.truth.rejectsPerFile[path], "\(path)")
    }
    let appleLines = try world.lines("exports/apple/transactions.jsonl").count
    #expect(
      jws * 40 > appleLines && jws * 10 < appleLines, "about 1 line in 20 is a JWS: \(jws) of \(appleLines)")
  }

  @Test func appRowsRejectOnlyThePlantedMalformedRows() throws {
    let world = try GeneratedWorld(users: 3000)
    defer { world.remove() }
    let lines = try world.lines("app/entitlements.csv")
    #expect(
      lines.first
        == "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at")
    var bad = 0
    for row in lines.dropFirst() {
      let f = csvFields(row)
      let timesOK = [f[6], f[7], f[8]].allSatisfy { $0.isEmpty || Instant.parseISO8601($0) != nil }
      if f.count != 9 || EntitlementStatus(rawValue: f[5]) == nil || EntitlementSource(rawValue: f[3]) == nil
        || !timesOK
      {
        bad += 1
      }
    }
    #expect(bad == 2)
    #expect(world.truth.rejectsPerFile["app/entitlements.csv"] == 2)
    // The other app files have no malformed rows: every timestamp parses (credentials' claimed_at and
    // assignments' assigned_at are their last column, goodwill's starts_at its fourth).
    for (path, column) in [
      ("app/credentials.csv", 5), ("app/assignments.csv", 3), ("app/goodwill.csv", 3), ("app/credits.csv", 6),
    ] {
      #expect(world.truth.rejectsPerFile[path] == 0)
      for row in try world.lines(path).dropFirst() {
        let fields = csvFields(row)
        #expect(fields.count > column && Instant.parseISO8601(fields[column]) != nil, "\(path): \(row)")
      }
    }
  }

  @Test func plantedChainKeysExistInTheExports() throws {
    let world = try GeneratedWorld(users: 3000)
    defer { world.remove() }
    var appleKeys: Set<String> = []
    var appleTransactions: Set<String> = []
    for line in try world.lines("exports/apple/transactions.jsonl") {
      guard let object = decodeJSONLine(line) else { continue }
      if let key = object["originalTransactionId"] as? String { appleKeys.insert(key) }
      if let id = object["transactionId"] as? String {
        #expect(appleTransactions.insert(id).inserted, "transactionId \(id) is not unique")
      }
    }
    var playKeys: Set<String> = []
    for line in try world.lines("exports/play/subscriptions.jsonl") {
      if let token = decodeJSONLine(line)?["purchaseToken"] as? String { playKeys.insert(token) }
    }
    for line in try world.lines("exports/play/voided.jsonl") {
      if let token = decodeJSONLine(line)?["purchaseToken"] as? String { playKeys.insert(token) }
    }
    for path in world.salesFiles {
      for row in try world.lines(path).dropFirst() {
        let order = csvFields(row)[0]
        playKeys.insert(order.components(separatedBy: "..")[0])
      }
    }
    var stripeKeys = Set<String>()
    for line in try world.lines(DemoStripeOutputs.objectsPath) {
      if let object = decodeJSONLine(line), object["object"] as? String == "subscription",
        let id = object["id"] as? String
      {
        stripeKeys.insert(id)
      }
    }
    let entitlementKeys = Set(try world.lines("app/entitlements.csv").dropFirst().map { csvFields($0)[4] })
    let creditKeys = Set(try world.lines("app/credits.csv").dropFirst().map { csvFields($0)[3] })
    for p in world.truth.planted {
      let known = p.store == .appStore ? appleKeys.union(appleTransactions) : playKeys
      if p.reason == "no_store_record" {
        #expect(!known.contains(p.chainKey), "\(p.chainKey) should be unknown to the store")
        #expect(entitlementKeys.contains(p.chainKey))
      } else if p.reason == "unknown_transaction" {
        #expect(!known.contains(p.chainKey), "\(p.chainKey) should be unknown to the store")
        #expect(creditKeys.contains(p.chainKey))
      } else {
        let keys = p.store == .appStore ? appleKeys : (p.store == .play ? playKeys : stripeKeys)
        #expect(keys.contains(p.chainKey), "\(p.kind)/\(p.reason) \(p.chainKey)")
      }
    }
  }

  @Test func configNamesEveryInputAndProduct() throws {
    let world = try GeneratedWorld(users: 600)
    defer { world.remove() }
    let object = try JSONSerialization.jsonObject(with: world.data("storerecon.json")) as? [String: Any]
    let config = try #require(object)
    let catalog = try #require(config["catalog"] as? [String: [String: Any]])
    for key in [
      "app_store:com.acme.pro.monthly", "app_store:com.acme.pro.monthly.hi", "app_store:com.acme.pro.yearly",
      "app_store:com.acme.lifetime", "app_store:com.acme.coins100", "play:pro:monthly", "play:pro:monthly-hi",
      "play:pro:yearly", "play:lifetime",
    ] {
      #expect(catalog[key] != nil, "\(key)")
    }
    #expect(catalog["play:pro:yearly"]?["period"] as? String == "P1Y")
    #expect(catalog["play:pro:yearly"]?["tier"] as? String == "pro")
    #expect(catalog["app_store:com.acme.coins100"]?["type"] as? String == "consumable")
    #expect(catalog["app_store:com.acme.coins100"]?["units"] as? Int == 100)
    #expect(config["creditGraceHours"] as? Int == 6)
    #expect((config["app"] as? [String: String])?["credits"] == "app/credits.csv")
    #expect((config["graceDays"] as? [String: Int])?["play"] == 30)
    #expect(config["toleranceHours"] as? Int == 24)
    let inputs = world.truth.rejectsPerFile.keys
    #expect(inputs.contains("exports/apple/transactions.jsonl") && inputs.contains("app/goodwill.csv"))
  }
}
