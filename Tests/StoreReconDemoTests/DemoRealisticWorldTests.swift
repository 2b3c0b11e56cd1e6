import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo

/// The realistic world (`demo --realistic`): the same kind of world, written the way real exports are.
@Suite("Demo world, realistic")
struct DemoRealisticWorldTests {
  static let uuid = try? NSRegularExpression(
    pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")

  static func isUUID(_ text: String) -> Bool {
    uuid?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  @Test func sameSeedGivesByteIdenticalFiles() throws {
    let a = try GeneratedWorld(users: 600, realistic: true)
    defer { a.remove() }
    let b = try GeneratedWorld(users: 600, realistic: true)
    defer { b.remove() }
    #expect(a.truth.files == b.truth.files)
    #expect(a.truth.planted == b.truth.planted)
    for path in a.truth.files {
      #expect(try a.data(path) == b.data(path), "\(path) differs between two runs with the same seed")
    }
    let classic = try GeneratedWorld(users: 600)
    defer { classic.remove() }
    #expect(try classic.data("app/entitlements.csv") != a.data("app/entitlements.csv"))
  }

  @Test func theAllJWSWorldIsTheSameWorldWithEveryAppleLineSignedInFetchsJournal() throws {
    let plain = try GeneratedWorld(users: 600, realistic: true)
    defer { plain.remove() }
    let signed = try GeneratedWorld(users: 600, realistic: true, allJWS: true)
    defer { signed.remove() }
    #expect(signed.truth.planted == plain.truth.planted)
    // The App Store lines (fetch's journal instead of one file), the config, and the expected rejects
    // (the realistic world's one damaged App Store line, a decoded line cut short, has no JWS form) differ;
    // nothing else.
    let historyPath = DemoOutputs.journalHistoryPath
    let dayPath = DemoOutputs.journalDayPath(after: DemoOptions().asOf)
    #expect(dayPath == "exports/apple/transactions/000001-20261130T060000Z.jsonl")
    #expect(signed.truth.files.contains(historyPath) && signed.truth.files.contains(dayPath))
    #expect(!signed.truth.files.contains("exports/apple/transactions.jsonl"))
    let differ: Set<String> = [
      "exports/apple/transactions.jsonl", "storerecon.json", "truth/expected_rejects.csv",
    ]
    for path in plain.truth.files where !differ.contains(path) {
      #expect(try signed.data(path) == plain.data(path), "\(path) differs")
    }
    let rejects = try plain.lines("truth/expected_rejects.csv").filter { !$0.contains("apple") }
    #expect(try signed.lines("truth/expected_rejects.csv").filter { !$0.contains("apple") } == rejects)
    let config = String(decoding: try signed.data("storerecon.json"), as: UTF8.self)
    #expect(config.contains(#""signatures": "require""#))
    #expect(config.contains(#""transactions": ["exports/apple/transactions/*.jsonl"]"#))
    // Every line a compact JWS whose payload is the realistic world's line (its one damaged line aside).
    let history = try signed.lines(historyPath)
    let day = try signed.lines(dayPath)
    let decoded = try plain.lines("exports/apple/transactions.jsonl").filter { $0.hasPrefix("{") }
    #expect((history + day).allSatisfy { $0.hasPrefix("ey") && $0.split(separator: ".").count == 3 })
    var payloads: Set<String> = []
    for line in history + day {
      let parts = line.split(separator: ".")
      var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      text += String(repeating: "=", count: (4 - text.count % 4) % 4)
      if let bytes = Data(base64Encoded: text) { payloads.insert(String(decoding: bytes, as: UTF8.self)) }
    }
    let matched = decoded.filter { payloads.contains($0) }.count
    #expect(matched >= decoded.count - 1, "\(matched) of \(decoded.count) decoded lines found as payloads")
    // The day's file holds what was signed on the report date, the history what was signed before; a
    // transaction in both is one revoked on the report date, unrevoked in the history.
    let dayStart = DemoOptions().asOf.startUTC.ms
    func signedDate(_ object: [String: Any]) -> Int64 {
      (object["signedDate"] as? NSNumber)?.int64Value ?? -1
    }
    let historyObjects = history.compactMap(decodeJSONLine)
    let dayObjects = day.compactMap(decodeJSONLine)
    #expect(historyObjects.count == history.count && dayObjects.count == day.count)
    #expect(!dayObjects.isEmpty && historyObjects.count > 20 * dayObjects.count)
    #expect(historyObjects.allSatisfy { signedDate($0) < dayStart })
    #expect(dayObjects.allSatisfy { signedDate($0) >= dayStart })
    let dayIds = Dictionary(
      dayObjects.map { ($0["transactionId"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    for earlier in historyObjects {
      guard let later = dayIds[earlier["transactionId"] as? String ?? ""] else { continue }
      #expect(earlier["revocationDate"] == nil && later["revocationDate"] != nil)
    }
    #expect(history.count + day.count >= decoded.count - 1)
  }

  @Test func userIdsAreUUIDsAndLongOpaqueIds() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    var uuids: Set<String> = []
    var opaque: Set<String> = []
    for row in try world.lines("app/credentials.csv").dropFirst() {
      let user = csvFields(row)[2]
      if DemoRealisticWorldTests.isUUID(user) {
        uuids.insert(user)
      } else {
        #expect((40...64).contains(user.utf8.count), "\(user)")
        opaque.insert(user)
      }
    }
    let share = Double(opaque.count) / Double(uuids.count + opaque.count)
    #expect(share > 0.05 && share < 0.15, "long opaque ids: \(opaque.count) of \(uuids.count + opaque.count)")
    #expect(world.truth.planted.allSatisfy { $0.userId.isEmpty || !$0.userId.hasPrefix("u0") })
  }

  @Test func appleLinesCarryEveryCurrentFieldInSeveralForms() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    let lines = try world.lines("exports/apple/transactions.jsonl")
    var failed = 0
    var jws = 0
    var spaced = 0
    var firstKeys: Set<String> = []
    var longest: [String: Int] = [:]
    for line in lines {
      guard let object = decodeJSONLine(line) else {
        failed += 1
        continue
      }
      if line.hasPrefix("{") {
        if line.contains("\": ") { spaced += 1 }
        firstKeys.insert(String(line.dropFirst(2).prefix { $0 != "\"" }))
      } else {
        jws += 1
      }
      for field in [
        "transactionId", "originalTransactionId", "bundleId", "productId", "purchaseDate", "quantity", "type",
        "inAppOwnershipType", "signedDate", "environment", "transactionReason", "storefront", "storefrontId",
        "price", "currency", "appTransactionId",
      ] {
        #expect(object[field] != nil, "\(field) missing: \(line.prefix(200))")
      }
      let key = try #require(object["originalTransactionId"] as? String)
      longest[key, default: 0] += 1
    }
    #expect(failed == world.truth.rejectsPerFile["exports/apple/transactions.jsonl"])
    #expect(jws * 40 > lines.count && jws * 10 < lines.count, "JWS lines: \(jws) of \(lines.count)")
    #expect(spaced * 10 > lines.count, "spaced lines: \(spaced) of \(lines.count)")
    #expect(firstKeys.count >= 3, "first keys: \(firstKeys.sorted())")
    #expect((longest.values.max() ?? 0) >= 40, "longest chain: \(longest.values.max() ?? 0) transactions")
    // Several products per user: what the app holds (entitlements) and credits (coins) per user.
    var products: [String: Set<String>] = [:]
    for (path, user, product) in [("app/entitlements.csv", 1, 2), ("app/credits.csv", 1, 4)] {
      for row in try world.lines(path).dropFirst() {
        let f = csvFields(row)
        products[f[user], default: []].insert(f[product])
      }
    }
    #expect(products.values.filter { $0.count >= 3 }.count >= 10, "users with three or more products")
  }

  @Test func playResourcesCarryTheContextsGoogleSends() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    let lines = try world.lines("exports/play/subscriptions.jsonl")
    var states: Set<String> = []
    var contexts: Set<String> = []
    var tags = 0
    for line in lines {
      guard let object = decodeJSONLine(line) else { continue }
      states.insert(object["subscriptionState"] as? String ?? "")
      if let canceled = object["canceledStateContext"] as? [String: Any] { contexts.formUnion(canceled.keys) }
      if object["pausedStateContext"] != nil { contexts.insert("paused") }
      #expect(object["acknowledgementState"] != nil)
      let items = try #require(object["lineItems"] as? [[String: Any]])
      for item in items {
        if let expiry = item["expiryTime"] as? String {
          #expect(Instant.parseISO8601(expiry) != nil, "\(expiry)")
        }
        if (item["offerDetails"] as? [String: Any])?["offerTags"] != nil { tags += 1 }
      }
    }
    #expect(states.isSuperset(of: ["SUBSCRIPTION_STATE_ACTIVE", "SUBSCRIPTION_STATE_PAUSED"]), "\(states)")
    #expect(contexts.isSuperset(of: ["userInitiatedCancellation", "paused"]), "\(contexts)")
    #expect(tags * 2 > lines.count)
  }

  @Test func appRowTimestampsComeInEveryFormAndAllParse() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    var forms: Set<String> = []
    var rows = 0
    for row in try world.lines("app/entitlements.csv").dropFirst() {
      let f = csvFields(row)
      guard EntitlementStatus(rawValue: f[5]) != nil, Instant.parseISO8601(f[6]) != nil else { continue }
      rows += 1
      for cell in f[6...8] where !cell.isEmpty {
        #expect(Instant.parseISO8601(cell) != nil, "\(cell)")
        forms.insert(cell.contains(" ") ? "space" : cell.hasSuffix("Z") ? "zulu" : "offset")
        if cell.count == 20 { forms.insert("whole seconds") }
      }
    }
    #expect(forms == ["space", "zulu", "offset", "whole seconds"], "\(forms)")
    // About two entitlement and two credential rows per user.
    let credentials = try world.lines("app/credentials.csv").count - 1
    #expect(
      rows * 10 > 3000 * 16 && credentials * 10 > 3000 * 18,
      "\(rows) entitlements, \(credentials) credentials")
  }
}
