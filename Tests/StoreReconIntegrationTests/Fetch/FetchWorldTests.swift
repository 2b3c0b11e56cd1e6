import Foundation
import Testing
import StoreReconTestSupport
import StoreReconDemo

/// The done-when test of `storerecon fetch`: a demo world's App Store transactions served by the loopback
/// API (history per original transaction id, every line signed by the demo's test chain; the ids no app
/// row names known only from the notification history), fetched, and reconciled: findings.csv and
/// revenue.csv are byte-identical to the run on the world's own files.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchWorldTests {
  /// The world's App Store lines as signed transactions, by original transaction id, in file order; a
  /// line that is not JSON nor a JWS (a planted damaged line) is left out.
  static func signedHistories(_ file: URL) throws -> [String: [String]] {
    var out: [String: [String]] = [:]
    for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
      let text = String(line)
      var payload = Array(text.utf8)
      var jws: String?
      if !text.hasPrefix("{") {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let decoded = base64URL(String(parts[1])) else { continue }
        payload = decoded
        jws = text
      }
      guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
        let original = object["originalTransactionId"] as? String, object["transactionId"] is String
      else { continue }
      out[original, default: []].append(jws ?? DemoSigner.jws(payload))
    }
    return out
  }

  static func base64URL(_ text: String) -> [UInt8]? {
    var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while s.count % 4 != 0 { s += "=" }
    return Data(base64Encoded: s).map { [UInt8]($0) }
  }

  @Test func aFetchedWorldReconcilesExactlyAsItsFiles() throws {
    let world = try RunWorld(users: 300)
    defer { world.remove() }
    let exported = try world.run([])
    #expect(exported.status == 0 || exported.status == 3, "\(exported.stderr)")
    let findings = try world.file("findings.csv")
    let revenue = try world.file("revenue.csv")
    #expect(findings.split(separator: "\n").count > 20 && revenue.split(separator: "\n").count > 20)

    let histories = try Self.signedHistories(
      world.directory.appendingPathComponent("exports/apple/transactions.jsonl"))
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let server = try AppleAPIServer { fixtures in
      var notifications: [[String: Any]] = []
      for (original, signed) in histories {
        try AppleAPIServer.write(["signedTransactions": signed], to: "history/\(original).json", in: fixtures)
        let body: [String: Any] = [
          "notificationType": "DID_RENEW", "notificationUUID": "n-\(original)", "signedDate": now - 3_600_000,
          "data": ["signedTransactionInfo": signed[signed.count - 1]],
        ]
        notifications.append([
          "date": now - 3_600_000, "signedPayload": try AppleAPIServer.signedTransaction(body),
          "sendAttempts": [["attemptDate": now - 3_600_000, "sendAttemptResult": "SUCCESS"]],
        ])
      }
      try AppleAPIServer.write(notifications, to: "notifications.json", in: fixtures)
    }
    defer { server.stop() }
    try world.setConfig(["fetch": server.fetchConfig(into: "fetched")])
    let fetched = try Binary.run(["fetch", "--config", world.config.path, "--quiet"])
    #expect(fetched.status == 0, "\(fetched.stderr)")
    let lines = try FetchAppleTests.journal(world.directory.appendingPathComponent("fetched")).flatMap(
      \.lines)
    #expect(lines.count == Set(histories.values.joined()).count)
    let asked = Set(
      try server.requests().compactMap { $0["path"] as? String }.filter {
        $0.hasPrefix("/inApps/v2/history/")
      })
    #expect(
      asked.isSuperset(of: histories.keys.map { "/inApps/v2/history/\($0)" }),
      "every customer's history, the unclaimed ones known from the notifications")

    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var appStore = root["appStore"] as? [String: Any] ?? [:]
    appStore["transactions"] = "fetched/apple/transactions/*.jsonl"
    root["appStore"] = appStore
    try world.setConfig(["appStore": appStore])
    let reconciled = try world.run([])
    #expect(reconciled.status == exported.status, "\(reconciled.stderr)")
    #expect(try world.file("findings.csv") == findings)
    #expect(try world.file("revenue.csv") == revenue)
  }
}
