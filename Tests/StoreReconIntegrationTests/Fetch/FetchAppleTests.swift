import Foundation
import Testing
import StoreReconTestSupport

/// `storerecon fetch apple` against the loopback App Store API: paging, revisions kept in the state, a
/// 429 then success, an expired token re-made, bad responses rejected with the request named and
/// nothing written, and no secret in any output.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchAppleTests {
  static let day: Int64 = 86_400_000
  static var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  /// A transaction payload of customer `original`, the `n`th, bought `daysAgo` days ago.
  static func transaction(_ original: String, _ n: Int, daysAgo: Int64) -> [String: Any] {
    let bought = nowMs - daysAgo * day
    return [
      "transactionId": "\(original)\(String(format: "%03d", n))", "originalTransactionId": original,
      "bundleId": AppleAPIServer.bundleId, "productId": "com.acme.pro.monthly", "purchaseDate": bought,
      "originalPurchaseDate": nowMs - 40 * day, "expiresDate": bought + 30 * day, "quantity": 1,
      "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": bought + 1000,
      "environment": "Production", "transactionReason": n == 0 ? "PURCHASE" : "RENEWAL", "price": 4990,
      "currency": "EUR", "storefront": "DEU",
    ]
  }

  /// A notification history item naming transaction `payload`.
  static func notification(_ uuid: String, _ payload: [String: Any]) throws -> [String: Any] {
    let signed = try AppleAPIServer.signedTransaction(payload)
    let body: [String: Any] = [
      "notificationType": "DID_RENEW", "notificationUUID": uuid, "version": "2.0", "signedDate": nowMs - day,
      "data": [
        "bundleId": AppleAPIServer.bundleId, "environment": "Production", "signedTransactionInfo": signed,
      ],
    ]
    return [
      "date": nowMs - day, "signedPayload": try AppleAPIServer.signedTransaction(body),
      "sendAttempts": [["attemptDate": nowMs - day, "sendAttemptResult": "TIMED_OUT"]],
    ]
  }

  /// A config folder: config.json with the server's fetch object and an entitlements file naming `keys`.
  static func configFolder(
    _ server: AppleAPIServer, keys: [String], vendor: String? = nil, backfillDays: Int? = nil
  ) throws -> URL {
    let folder = try Binary.temporaryDirectory()
    var csv = "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
    for (i, key) in keys.enumerated() { csv += "e\(i),u\(i),pro,app_store,\(key),active,,,\n" }
    try csv.write(to: folder.appendingPathComponent("entitlements.csv"), atomically: true, encoding: .utf8)
    var fetch = server.fetchConfig(vendor: vendor)
    if let backfillDays, var apple = fetch["apple"] as? [String: Any] {
      apple["backfillDays"] = backfillDays
      fetch["apple"] = apple
    }
    let config: [String: Any] = ["fetch": fetch, "app": ["entitlements": "entitlements.csv"]]
    try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("config.json"))
    return folder
  }

  static func fetch(_ folder: URL, _ extra: [String] = []) throws -> Binary.Output {
    try Binary.run(["fetch", "apple", "--config", folder.appendingPathComponent("config.json").path] + extra)
  }

  /// Every file under `folder`, by relative path.
  static func files(_ folder: URL) -> [String: Data] {
    var out: [String: Data] = [:]
    let base = folder.path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return out }
    for case let path as String in walker {
      if let data = FileManager.default.contents(atPath: base + "/" + path) { out[path] = data }
    }
    return out
  }

  /// The App Store journal's files under `fetched` (`apple/transactions/`), by name in the order they are
  /// read, each as its lines.
  static func journal(_ fetched: URL) throws -> [(name: String, lines: [Substring])] {
    let folder = fetched.appendingPathComponent("apple/transactions")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return try names.filter { !$0.hasPrefix(".") }.sorted().map {
      ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8).split(separator: "\n"))
    }
  }

  /// A server with customer 1000's `history`, customer 2000's `named` transaction (known from a
  /// notification only), an expired first token and one 429.
  static func pagingServer(_ history: [[String: Any]], _ named: [String: Any]) throws -> AppleAPIServer {
    try AppleAPIServer { fixtures in
      try AppleAPIServer.write(
        ["signedTransactions": try history.map(AppleAPIServer.signedTransaction)], to: "history/1000.json",
        in: fixtures)
      try AppleAPIServer.write(
        ["signedTransactions": [try AppleAPIServer.signedTransaction(named)]], to: "history/2000.json",
        in: fixtures)
      try AppleAPIServer.write([try Self.notification("n-1", named)], to: "notifications.json", in: fixtures)
      try AppleAPIServer.write(
        [
          ["expireFirstToken": true],
          ["path": "/inApps/v2/history/1000", "status": 429, "headers": ["Retry-After": "1"], "times": 1],
        ], to: "faults.json", in: fixtures)
    }
  }

  /// Expects no output to hold a line of the key file or the start of a token of the key.
  static func expectNoSecret(_ outputs: [String], keyFile: String) throws {
    let key = try String(contentsOfFile: keyFile, encoding: .utf8)
    let keyBody = key.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
    let tokenHeader = "eyJhbGciOiJFUzI1NiIsImtpZCI6"  // {"alg":"ES256","kid":
    for text in outputs {
      #expect(!text.contains(tokenHeader))
      for line in keyBody { #expect(!text.contains(line)) }
    }
  }

  @Test func pagesRetriesRefreshesAndResumesFromTheState() throws {
    let history = (0..<25).map { Self.transaction("1000", $0, daysAgo: Int64(25 - $0)) }
    let named = Self.transaction("2000", 0, daysAgo: 2)
    let server = try Self.pagingServer(history, named)
    defer { server.stop() }
    let folder = try Self.configFolder(server, keys: ["1000"])
    defer { try? FileManager.default.removeItem(at: folder) }

    let first = try Self.fetch(folder)
    #expect(first.status == 0, "\(first.stderr)")
    let fetched = folder.appendingPathComponent("fetched")
    let journal = try Self.journal(fetched)
    #expect(journal.count == 1 && journal[0].name.hasPrefix("000001-"), "\(journal.map(\.name))")
    let lines = journal.flatMap(\.lines)
    #expect(lines.count == 26)
    #expect(lines.allSatisfy { $0.split(separator: ".").count == 3 && !$0.contains("{") })
    let log = try server.requests()
    #expect(log.filter { $0["status"] as? Int == 401 }.count == 1, "the expired first token is refused once")
    #expect(log.filter { $0["jwt"] as? String != "ok" }.isEmpty, "every JWT verifies: \(log)")
    #expect(log.contains { $0["status"] as? Int == 429 })
    let pages = log.filter {
      $0["path"] as? String == "/inApps/v2/history/1000" && $0["status"] as? Int == 200
    }
    #expect(pages.map { $0["query"] as? String ?? "" } == ["sort=ASCENDING", "sort=ASCENDING&revision=20"])
    #expect(
      log.contains { $0["path"] as? String == "/inApps/v2/history/2000" }, "named by a notification only")
    let notifications = try String(
      contentsOf: fetched.appendingPathComponent("apple/notifications.jsonl"), encoding: .utf8)
    #expect(
      notifications.hasPrefix(
        "{\"notificationUUID\":\"n-1\",\"notificationType\":\"DID_RENEW\",\"subtype\":\"\""))
    #expect(notifications.contains("\"originalTransactionId\":\"2000\",\"transactionId\":\"2000000\""))
    #expect(notifications.contains("\"firstSendAttemptResult\":\"TIMED_OUT\""))
    let state = try String(contentsOf: fetched.appendingPathComponent("state.json"), encoding: .utf8)
    #expect(state.contains("\"revision\" : \"25\""))

    // Nothing new: every history request starts from the kept revision, and no file is rewritten.
    let before = Self.files(fetched)
    let firstFile = "apple/transactions/" + journal[0].name
    let stamps =
      try FileManager.default.attributesOfItem(
        atPath: fetched.appendingPathComponent(firstFile).path)[.modificationDate] as? Date
    server.clearRequests()
    let second = try Self.fetch(folder)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("0 files written"), "\(second.stdout)")
    let again = try server.requests().filter {
      ($0["path"] as? String ?? "").hasPrefix("/inApps/v2/history/")
    }
    #expect(again.count == 2)
    #expect(again.allSatisfy { ($0["query"] as? String ?? "").contains("revision=") })
    #expect(!again.contains { $0["query"] as? String == "sort=ASCENDING&revision=20" })
    let after = Self.files(fetched)
    #expect(after.keys.sorted() == before.keys.sorted())
    #expect(after.filter { before[$0.key] != $0.value }.keys.sorted() == ["state.json"] || after == before)
    let stampsAfter =
      try FileManager.default.attributesOfItem(
        atPath: fetched.appendingPathComponent(firstFile).path)[.modificationDate] as? Date
    #expect(stamps == stampsAfter)

    // A new renewal appears: the next fetch asks from the kept revision and adds it.
    try server.write(
      [
        "signedTransactions": try (history + [Self.transaction("1000", 25, daysAgo: 0)]).map(
          AppleAPIServer.signedTransaction)
      ],
      to: "history/1000.json")
    let third = try Self.fetch(folder, ["--quiet"])
    #expect(third.status == 0, "\(third.stderr)")
    #expect(third.stderr.isEmpty)
    let grown = try Self.journal(fetched)
    #expect(grown.count == 2 && grown[1].name.hasPrefix("000002-"), "\(grown.map(\.name))")
    #expect(grown[1].lines.count == 1 && Self.files(fetched)[firstFile] == before[firstFile], "one new file")

    // No secret anywhere: not the key's bytes, not a token's header or signature.
    var outputs = [first.stdout, first.stderr, second.stdout, second.stderr, third.stdout, third.stderr]
    outputs += Self.files(folder).values.map { String(decoding: $0, as: UTF8.self) }
    try Self.expectNoSecret(outputs, keyFile: server.keyFile)
  }
}

/// A fetch that fails part-way keeps what it fetched before the failure, and the next one resumes.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchResumeTests {
  @Test func anInterruptedFetchKeepsItsProgressAndResumes() throws {
    let first = (0..<3).map { FetchAppleTests.transaction("1000", $0, daysAgo: Int64(3 - $0)) }
    let second = [FetchAppleTests.transaction("3000", 0, daysAgo: 1)]
    let server = try AppleAPIServer { fixtures in
      try AppleAPIServer.write(
        ["signedTransactions": try first.map(AppleAPIServer.signedTransaction)], to: "history/1000.json",
        in: fixtures)
      try AppleAPIServer.write(
        ["signedTransactions": try second.map(AppleAPIServer.signedTransaction)], to: "history/3000.json",
        in: fixtures)
      // Three tries fail: the first fetch gives up on customer 3000 (retries 2); the second gets through.
      try AppleAPIServer.write(
        [["path": "/inApps/v2/history/3000", "status": 503, "headers": ["Retry-After": "0"], "times": 3]],
        to: "faults.json", in: fixtures)
    }
    defer { server.stop() }
    let folder = try FetchAppleTests.configFolder(server, keys: ["1000", "3000"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let fetched = folder.appendingPathComponent("fetched")

    let failed = try FetchAppleTests.fetch(folder, ["--quiet"])
    #expect(failed.status == 75)
    #expect(failed.stderr.contains("GET /inApps/v2/history/3000: HTTP 503 after 3 tries"), "\(failed.stderr)")
    let kept = try FetchAppleTests.journal(fetched)
    #expect(kept.count == 1 && kept[0].lines.count == 3, "what came before the failure: \(kept.map(\.name))")
    #expect(
      try String(contentsOf: fetched.appendingPathComponent("state.json"), encoding: .utf8).contains(
        "\"1000\""))

    server.clearRequests()
    let resumed = try FetchAppleTests.fetch(folder, ["--quiet"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let log = try server.requests().filter { $0["path"] as? String == "/inApps/v2/history/1000" }
    #expect(log.map { $0["query"] as? String ?? "" } == ["sort=ASCENDING&revision=3"])
    let all = try FetchAppleTests.journal(fetched)
    #expect(all.count == 2 && all[0].lines == kept[0].lines && all[1].lines.count == 1)
  }
}
