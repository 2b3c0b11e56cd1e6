import Foundation
import Testing
import StoreReconTestSupport

/// `fetch.concurrency` against the loopback App Store API, which holds each answer a while as a distant
/// server does: the concurrent fetch writes the same bytes as the one-at-a-time fetch, never starts more
/// than `fetch.requestsPerSecond` requests in any second as the server counts them, and a 429 pauses
/// every thread for its `Retry-After`.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchConcurrencyTests {
  /// `count` customers `c00`…: histories of one to five transactions (two a page, so most take several
  /// pages), a refund for every fourth, no history at all (404) for every seventh; a notification names
  /// one customer no row knows.
  static func world(_ count: Int, latencyMs: Int, faults: [[String: Any]] = []) throws -> (
    AppleAPIServer, [String]
  ) {
    let ids = (0..<count).map { String(format: "c%02d", $0) }
    let server = try AppleAPIServer(pageSize: 2, latencyMs: latencyMs) { fixtures in
      for (n, id) in ids.enumerated() where n % 7 != 3 {
        let history = (0..<(n % 5 + 1)).map { FetchAppleTests.transaction(id, $0, daysAgo: Int64(10 - $0)) }
        try AppleAPIServer.write(
          ["signedTransactions": try history.map(AppleAPIServer.signedTransaction)], to: "history/\(id).json",
          in: fixtures)
        if n % 4 == 1 {
          var refunded = history[0]
          refunded["revocationDate"] = FetchAppleTests.nowMs - FetchAppleTests.day
          refunded["revocationReason"] = 0
          refunded["signedDate"] = FetchAppleTests.nowMs - FetchAppleTests.day
          try AppleAPIServer.write(
            ["signedTransactions": [try AppleAPIServer.signedTransaction(refunded)]],
            to: "refunds/\(id).json", in: fixtures)
        }
      }
      let unclaimed = FetchAppleTests.transaction("zz99", 0, daysAgo: 1)
      try AppleAPIServer.write(
        ["signedTransactions": [try AppleAPIServer.signedTransaction(unclaimed)]], to: "history/zz99.json",
        in: fixtures)
      try AppleAPIServer.write(
        [try FetchAppleTests.notification("n-1", unclaimed)], to: "notifications.json", in: fixtures)
      try AppleAPIServer.write(faults, to: "faults.json", in: fixtures)
    }
    return (server, ids)
  }

  /// A config folder whose fetch writes into `into` with these settings.
  static func config(
    _ server: AppleAPIServer, ids: [String], into: String, concurrency: Int, rate: Double
  ) throws -> URL {
    let folder = try FetchAppleTests.configFolder(server, keys: ids)
    let file = folder.appendingPathComponent("config.json")
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    var fetch = root["fetch"] as? [String: Any] ?? [:]
    fetch["into"] = into
    fetch["concurrency"] = concurrency
    fetch["requestsPerSecond"] = rate
    root["fetch"] = fetch
    try JSONSerialization.data(withJSONObject: root).write(to: file)
    return folder
  }

  /// The fetched files of `folder`'s fetch and the customers of its state (the state's times aside).
  static func outcome(_ folder: URL, _ into: String) throws -> (files: [String: Data], customers: String) {
    let fetched = folder.appendingPathComponent(into)
    var files = FetchAppleTests.files(fetched)
    let state = files.removeValue(forKey: "state.json") ?? Data()
    files.removeValue(forKey: ".lock")
    // A journal file's name holds the second it was written: compared by its sequence number only.
    for name in files.keys where name.hasPrefix("apple/transactions/") {
      files["apple/transactions/" + name.dropFirst("apple/transactions/".count).prefix(6)] =
        files.removeValue(
          forKey: name)
    }
    let root = try JSONSerialization.jsonObject(with: state) as? [String: Any]
    let apple = (root?["sources"] as? [String: Any])?["apple"] as? [String: Any]
    let customers = try JSONSerialization.data(
      withJSONObject: apple?["customers"] ?? [:], options: [.sortedKeys])
    return (files, String(decoding: customers, as: UTF8.self))
  }

  @Test func concurrentFetchWritesTheSameBytesAsOneAtATime() throws {
    let (server, ids) = try Self.world(40, latencyMs: 30)
    defer { server.stop() }
    let one = try Self.config(server, ids: ids, into: "one", concurrency: 1, rate: 0)
    let many = try Self.config(server, ids: ids, into: "many", concurrency: 8, rate: 0)
    defer {
      try? FileManager.default.removeItem(at: one)
      try? FileManager.default.removeItem(at: many)
    }
    let sequential = try FetchAppleTests.fetch(one, ["--quiet"])
    #expect(sequential.status == 0, "\(sequential.stderr)")
    let concurrent = try FetchAppleTests.fetch(many, ["--quiet"])
    #expect(concurrent.status == 0, "\(concurrent.stderr)")
    #expect(sequential.stdout == concurrent.stdout)
    let a = try Self.outcome(one, "one")
    let b = try Self.outcome(many, "many")
    #expect(a.files["apple/transactions/000001"] != nil && a.files["apple/notifications.jsonl"] != nil)
    #expect(a.files == b.files, "the same bytes")
    #expect(a.customers == b.customers, "the same cursors")
    #expect(a.customers.contains("\"notFound\":true"))
    #expect(String(decoding: a.files["apple/notifications.jsonl"] ?? Data(), as: UTF8.self).contains("zz99"))

    // A second concurrent fetch with nothing new writes nothing.
    let again = try FetchAppleTests.fetch(many)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 files written"), "\(again.stdout)")
    #expect(try Self.outcome(many, "many").files == b.files)
  }

  @Test func theServerNeverCountsMoreThanTheRateInAnySecond() throws {
    let rate = 10
    let (server, ids) = try Self.world(30, latencyMs: 300)
    defer { server.stop() }
    let folder = try Self.config(server, ids: ids, into: "fetched", concurrency: 8, rate: Double(rate))
    defer { try? FileManager.default.removeItem(at: folder) }
    let fetched = try FetchAppleTests.fetch(folder, ["--quiet"])
    #expect(fetched.status == 0, "\(fetched.stderr)")
    let log = try server.requests()
    let arrivals = log.compactMap { $0["at"] as? Double }.sorted()
    #expect(arrivals.count == log.count && arrivals.count > 3 * rate)
    // Every window of one second that starts at an arrival holds at most `rate` arrivals.
    let worst = arrivals.indices.map { i in arrivals[i...].prefix { $0 < arrivals[i] + 1 }.count }.max() ?? 0
    #expect(worst <= rate, "\(worst) requests in one second at a rate of \(rate)")
    #expect(worst >= rate - 2, "the rate, not the latency, bounds the fetch: \(worst)")
    // Each answer is held 300 ms and they start 110 ms apart: several are in flight at once.
    let spans = log.compactMap { entry -> (Double, Double)? in
      guard let at = entry["at"] as? Double, let sent = entry["sent"] as? Double else { return nil }
      return (at, sent)
    }
    let inFlight = spans.map { span in spans.filter { $0.0 <= span.0 && span.0 < $0.1 }.count }.max() ?? 0
    #expect(inFlight >= 2, "requests overlap: \(inFlight)")
  }

  @Test func a429PausesEveryThreadForItsRetryAfter() throws {
    let faults: [[String: Any]] = [
      ["path": "/inApps/v2/history/c20", "status": 429, "headers": ["Retry-After": "2"], "times": 1],
      // A 503 is this request's trouble: it is retried without pausing the others.
      ["path": "/inApps/v2/refund/lookup/c20", "status": 503, "headers": ["Retry-After": "0"], "times": 1],
    ]
    let (server, ids) = try Self.world(24, latencyMs: 100, faults: faults)
    defer { server.stop() }
    let many = try Self.config(server, ids: ids, into: "many", concurrency: 8, rate: 0)
    let one = try Self.config(server, ids: ids, into: "one", concurrency: 1, rate: 0)
    defer {
      try? FileManager.default.removeItem(at: many)
      try? FileManager.default.removeItem(at: one)
    }
    let concurrent = try FetchAppleTests.fetch(many, ["--quiet"])
    #expect(concurrent.status == 0, "\(concurrent.stderr)")
    let log = try server.requests()
    let limited = log.first { $0["status"] as? Int == 429 }
    let at = limited?["at"] as? Double ?? 0
    #expect(limited != nil)
    let retried = log.filter {
      $0["path"] as? String == "/inApps/v2/history/c20" && $0["status"] as? Int == 200
    }
    #expect((retried.first?["at"] as? Double ?? 0) >= at + 2, "the retry waits the 2 seconds asked")
    // The 429's answer reaches the client 100 ms after the request: what other threads started before
    // that arrives by then; after it, nobody starts a request until the two seconds are over. (A
    // connection's first request may arrive late, after its handshake on a busy machine: not counted.)
    let during = log.filter { entry in
      guard let t = entry["at"] as? Double, entry["onConnection"] as? Int != 0 else { return false }
      return t > at + 0.5 && t < at + 1.9
    }
    #expect(during.isEmpty, "no request during the pause: \(during.count)")
    server.clearRequests()
    let sequential = try FetchAppleTests.fetch(one, ["--quiet"])
    #expect(sequential.status == 0, "\(sequential.stderr)")
    let a = try Self.outcome(one, "one")
    let b = try Self.outcome(many, "many")
    #expect(a.files == b.files && a.customers == b.customers, "the retries change nothing fetched")
  }
}
