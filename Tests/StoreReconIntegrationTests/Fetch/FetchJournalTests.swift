import Foundation
import Testing
import StoreReconTestSupport
import StoreReconDemo

/// `fetch`'s App Store journal (docs/fetch.md#the-transaction-journal): a second fetch after a new day
/// writes one new file and changes no earlier one; the run after it parses only that file
/// (docs/snapshot.md) and writes the reports of a `--from-scratch` run; an old transaction revoked in
/// the later file gives the findings and revenue of the single file that keeps only its latest state.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchJournalTests {
  static let journal = "fetched/apple/transactions"

  /// The decoded payload of a compact JWS.
  static func payload(_ jws: String) throws -> [String: Any] {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    let bytes = try #require(parts.count == 3 ? FetchWorldTests.base64URL(String(parts[1])) : nil)
    return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
  }

  /// The journal's files, by name, in the order they are read.
  static func journalFiles(_ world: RunWorld) throws -> [(name: String, data: Data)] {
    let folder = world.directory.appendingPathComponent(journal)
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
      .sorted().map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
  }

  /// `storerecon run` over the world's config into `out` (under the world's folder: one report root).
  static func run(_ world: RunWorld, out: String, _ extra: [String] = []) throws -> Binary.Output {
    try Binary.run(
      [
        "run", "--config", world.config.path, "--date", "2026-11-29", "--no-history", "--allow-damaged",
        "--out", world.directory.appendingPathComponent(out).path,
      ] + extra)
  }

  /// Notification history items naming each of `signed` (a signed transaction), dated `at`.
  static func notifications(_ signed: [String], at: Int64) throws -> [[String: Any]] {
    try signed.enumerated().map { index, transaction in
      let body: [String: Any] = [
        "notificationType": "DID_RENEW", "notificationUUID": "n-\(at)-\(index)", "signedDate": at,
        "data": ["signedTransactionInfo": transaction],
      ]
      return [
        "date": at, "signedPayload": try AppleAPIServer.signedTransaction(body),
        "sendAttempts": [["attemptDate": at, "sendAttemptResult": "SUCCESS"]],
      ]
    }
  }

  /// An old production subscription purchase of `histories`, not revoked: its customer and transaction.
  static func oldPurchase(_ histories: [String: [String]]) throws -> (original: String, jws: String) {
    let before: Int64 = 1_790_812_800_000  // 2026-10-01T00:00:00Z
    for original in histories.keys.sorted() {
      for jws in histories[original] ?? [] {
        let p = try payload(jws)
        if p["environment"] as? String == "Production", p["revocationDate"] == nil,
          p["type"] as? String == "Auto-Renewable Subscription",
          ((p["purchaseDate"] as? NSNumber)?.int64Value ?? .max) < before
        {
          return (original, jws)
        }
      }
    }
    throw CocoaError(.fileReadCorruptFile)
  }

  /// The world's App Store history as the API serves it, and a new day held back from it: the last
  /// transaction of a few customers (their renewal) and an old purchase refunded.
  struct NewDay {
    var histories: [String: [String]]
    var held: [String: String] = [:]
    var old: (original: String, jws: String)
    var refund: String

    init(_ world: RunWorld) throws {
      var all = try FetchWorldTests.signedHistories(
        world.directory.appendingPathComponent("exports/apple/transactions.jsonl"))
      for original in all.keys.sorted().filter({ (all[$0]?.count ?? 0) >= 3 }).prefix(4) {
        held[original] = all[original]?.popLast()
      }
      histories = all
      old = try FetchJournalTests.oldPurchase(all)
      var revoked = try FetchJournalTests.payload(old.jws)
      let refundedAt: Int64 = 1_795_860_000_000  // 2026-11-28T10:00:00Z
      revoked["revocationDate"] = refundedAt
      revoked["revocationReason"] = 0
      revoked["signedDate"] = refundedAt + 1000
      refund = try AppleAPIServer.signedTransaction(revoked)
    }

    /// The notifications of the first day: one naming each customer's last transaction.
    func firstNotifications(at: Int64) throws -> [[String: Any]] {
      try FetchJournalTests.notifications(histories.keys.sorted().compactMap { histories[$0]?.last }, at: at)
    }

    /// Puts the new day on `server`: each renewal after its customer's history, the refunded purchase
    /// again (revoked) in its customer's history and refund history, and a notification for each.
    func serve(on server: AppleAPIServer, firstAt: Int64) throws {
      var appended = held.mapValues { [$0] }
      appended[old.original, default: []].append(refund)
      for (original, extra) in appended {
        try server.write(
          ["signedTransactions": (histories[original] ?? []) + extra], to: "history/\(original).json")
      }
      try server.write(["signedTransactions": [refund]], to: "refunds/\(old.original).json")
      let later = Int64(Date().timeIntervalSince1970 * 1000) + 1000
      let named = held.keys.sorted().compactMap { held[$0] } + [refund]
      try server.write(
        try firstNotifications(at: firstAt) + FetchJournalTests.notifications(named, at: later),
        to: "notifications.json")
    }
  }

  /// The journal's transactions as the single file of earlier versions kept them: each one's latest
  /// state only.
  static func latestStates(_ files: [(name: String, data: Data)]) throws -> String {
    var latest: [String: String] = [:]
    var order: [String] = []
    for file in files {
      for line in String(decoding: file.data, as: UTF8.self).split(separator: "\n") {
        let id = try #require(try payload(String(line))["transactionId"] as? String)
        if latest[id] == nil { order.append(id) }
        latest[id] = String(line)
      }
    }
    return order.compactMap { latest[$0] }.joined(separator: "\n") + "\n"
  }

  @Test func aNewDayIsOneNewFileAndTheRunParsesOnlyItAsFromScratch() throws {
    let world = try RunWorld(users: 300)
    defer { world.remove() }
    let day = try NewDay(world)
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let server = try AppleAPIServer { fixtures in
      for (original, signed) in day.histories {
        try AppleAPIServer.write(["signedTransactions": signed], to: "history/\(original).json", in: fixtures)
      }
      try AppleAPIServer.write(
        try day.firstNotifications(at: now - 3_600_000), to: "notifications.json", in: fixtures)
    }
    defer { server.stop() }
    try world.setConfig(["fetch": server.fetchConfig(into: "fetched")])
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any]
    var appStore = root?["appStore"] as? [String: Any] ?? [:]
    appStore["transactions"] = Self.journal + "/*.jsonl"
    try world.setConfig(["appStore": appStore])

    let first = try Binary.run(["fetch", "--config", world.config.path, "--quiet"])
    #expect(first.status == 0, "\(first.stderr)")
    let day1 = try Self.journalFiles(world)
    #expect(day1.count == 1 && day1[0].name.hasPrefix("000001-"), "\(day1.map(\.name))")
    let firstRun = try Self.run(world, out: "day1")
    #expect(firstRun.stderr.contains("1 parsed in full (1: no snapshot yet)"), "\(firstRun.stderr)")

    try day.serve(on: server, firstAt: now - 3_600_000)
    Thread.sleep(forTimeInterval: 1.1)  // the notifications of the new day are in the past
    let second = try Binary.run(["fetch", "--config", world.config.path, "--quiet"])
    #expect(second.status == 0, "\(second.stderr)")
    let day2 = try Self.journalFiles(world)
    #expect(day2.count == 2, "\(day2.map(\.name))")
    #expect(
      day2.first?.name == day1[0].name && day2.first?.data == day1[0].data, "the first file is unchanged")
    let added = String(decoding: try #require(day2.last).data, as: UTF8.self).split(separator: "\n")
    #expect(added.count == day.held.count + 1, "the renewals and the refund, once each: \(added.count)")

    // The run after the new day parses the new file only and writes a from-scratch run's reports.
    let helped = try Self.run(world, out: "helped")
    #expect(
      helped.stderr.contains(
        "snapshot: 1 App Store file merged without parsing, 1 parsed in full (1: no snapshot yet)"),
      "\(helped.stderr)")
    let scratch = try Self.run(world, out: "scratch", ["--from-scratch"])
    #expect(helped.status == scratch.status)
    let a = try world.reports(in: "helped")
    let b = try world.reports(in: "scratch")
    #expect(a.keys.sorted() == b.keys.sorted() && a.keys.contains("/findings.csv"))
    for (name, data) in a where b[name] != data {
      Issue.record("\(name) differs from the --from-scratch run's")
    }
    let duplicates = String(decoding: a["/duplicates.csv"] ?? Data(), as: UTF8.self)
    #expect(duplicates.contains("superseded"), "the purchase's first state is superseded: \(duplicates)")

    // The same findings and revenue as the single file of earlier versions.
    try Self.latestStates(day2).write(
      to: world.directory.appendingPathComponent("single.jsonl"), atomically: true, encoding: .utf8)
    appStore["transactions"] = "single.jsonl"
    try world.setConfig(["appStore": appStore])
    let single = try Self.run(world, out: "single")
    #expect(single.status == helped.status)
    let c = try world.reports(in: "single")
    #expect(c["/findings.csv"] == a["/findings.csv"], "the refund is found as in the single file")
    #expect(c["/revenue.csv"] == a["/revenue.csv"])
    #expect(
      a["/revenue.csv"] != (try world.reports(in: "day1"))["/revenue.csv"], "the new day changed revenue")
  }

  @Test func theSingleFileOfEarlierVersionsBecomesTheJournalsFirstFile() throws {
    let history = (0..<3).map { FetchAppleTests.transaction("1000", $0, daysAgo: Int64(3 - $0)) }
    let server = try AppleAPIServer { fixtures in
      try AppleAPIServer.write(
        ["signedTransactions": try history.map(AppleAPIServer.signedTransaction)], to: "history/1000.json",
        in: fixtures)
    }
    defer { server.stop() }
    let folder = try FetchAppleTests.configFolder(server, keys: ["1000"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let fetched = folder.appendingPathComponent("fetched")
    // What an earlier version kept: the first two transactions, in the one file it rewrote.
    let legacy = try history.prefix(2).map(AppleAPIServer.signedTransaction).joined(separator: "\n") + "\n"
    let legacyFile = fetched.appendingPathComponent("apple/transactions.jsonl")
    try FileManager.default.createDirectory(
      at: legacyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try legacy.write(to: legacyFile, atomically: true, encoding: .utf8)

    let output = try FetchAppleTests.fetch(folder)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.stderr.contains(
        "apple/transactions.jsonl is now apple/transactions/000000-history.jsonl, the journal's first file"),
      "\(output.stderr)")
    #expect(!FileManager.default.fileExists(atPath: legacyFile.path))
    let journal = try FetchAppleTests.journal(fetched)
    #expect(journal.map { $0.name.prefix(7) } == ["000000-", "000001-"], "\(journal.map(\.name))")
    #expect(journal.first?.lines.joined(separator: "\n") == String(legacy.dropLast()), "moved as it was")
    // The state had no revision: Apple sent all three again, signed anew; only the third is new.
    #expect(journal.last?.lines.count == 1)
  }
}
