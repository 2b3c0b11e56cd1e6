import Foundation
import Testing
import StoreReconTestSupport

/// Issue 13's whole-run check: a world where every input has bad lines — broken UTF-8, NUL, truncated
/// or repeated JSON, lone surrogates, timestamps out of the window, unbalanced quotes in the middle of
/// a CSV, wrong field counts, a BOM in the middle — gives exactly the findings and revenue of the clean
/// world, and each input's manifest counts exactly the bad lines more as rejected.
@Suite struct DamagedWorldTests {
  /// A bad line: its bytes, and whether the reader rejects it (`false`: a blank line, not counted).
  typealias Bad = [UInt8]

  static func text(_ s: String) -> Bad { Array(s.utf8) }

  /// Bad JSON lines any JSON Lines reader rejects.
  static let json: [Bad] = [
    text(#"{"transactionId":"88000001","originalTransactionId":"88"#),  // cut short
    text(#"{"transactionId":"8800000"#) + [0xE9] + text(#"2","productId":"p"}"#),  // Latin-1
    text(#"{"transactionId":"88"#) + [0x00] + text(#"03","productId":"p"}"#),  // NUL
    text(#"{"a":1,"a":2}"#),  // a member twice
    text(#"{"transactionId":"\ud800"}"#),  // a lone surrogate
    [0xEF, 0xBB, 0xBF] + text(#"{"transactionId":"88000006"}"#),  // a BOM in the middle
    text("[1,2,3]"),
    Array(repeating: 0x20, count: 3) + text("}{"),
  ]

  static let appStoreExtra: [Bad] = [
    text(
      #"{"transactionId":"8800000000000007","originalTransactionId":"8800000000000007","#
        + #""productId":"com.acme.pro.monthly","purchaseDate":-5000,"price":4990,"currency":"EUR"}"#),
    text(
      #"{"transactionId":"8800000000000008","originalTransactionId":"8800000000000008","#
        + #""productId":"com.acme.pro.monthly","purchaseDate":1790000000000,"price":-4990,"currency":"EUR"}"#),
    text(
      #"{"transactionId":"8800000000000009","originalTransactionId":"8800000000000009","#
        + #""productId":"com.acme.pro.monthly","purchaseDate":1790000000000,"price":4990,"#
        + #""environment":"Sandbox","environment":"Production","currency":"EUR"}"#),
  ]

  /// Bad CSV records for a file with `columns` columns (a new id, so no good row is touched).
  static func csv(columns: Int) -> [Bad] {
    let filler = Array(repeating: "x", count: columns - 2).joined(separator: ",")
    return [
      text("bad1,") + [0xE9] + text("," + filler),  // Latin-1
      text("bad2,a") + [0x00] + text("b," + filler),  // NUL
      text("bad4,too,few"),
      text("bad5," + filler + ",one,too,many"),
      // An unbalanced quote: only this record goes (the good record after it stands alone).
      text("bad3,\"never closed," + filler),
    ]
  }

  /// Bad rows of a tab-separated report with `columns` columns.
  static func tsv(columns: Int) -> [Bad] {
    let filler = Array(repeating: "x", count: columns - 2).joined(separator: "\t")
    return [
      text("bad1\t") + [0xE9] + text("\t" + filler),
      text("bad2\ta") + [0x00] + text("b\t" + filler),
      text("bad4\ttoo\tfew"),
    ]
  }

  /// The number of columns of `file`'s header (its first line) split on `separator`.
  static func columns(_ file: URL, _ separator: UInt8) throws -> Int {
    let data = try Data(contentsOf: file)
    let header = data.prefix { $0 != 0x0A }
    return header.filter { $0 == separator }.count + 1
  }

  /// Inserts `bad` lines after the first `keep` lines of `file` (a header and a record stay first).
  static func insert(_ bad: [Bad], into file: URL, after keep: Int = 2) throws {
    let data = try Data(contentsOf: file)
    var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    if lines.last == [] { lines.removeLast() }
    lines.insert(contentsOf: bad, at: min(keep, lines.count))
    var out: [UInt8] = []
    for line in lines { out += line + [0x0A] }
    try Data(out).write(to: file)
  }

  /// The manifest's (role + path) → rejected count.
  static func rejected(_ world: RunWorld) throws -> [String: Int] {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    var out: [String: Int] = [:]
    for input in manifest?["inputs"] as? [[String: Any]] ?? [] {
      let read = input["read"] as? Int ?? -1
      let accepted = input["accepted"] as? Int ?? -1
      let rejected = input["rejected"] as? Int ?? -1
      #expect(read == accepted + rejected, "\(input["path"] ?? "?")")
      out["\(input["role"] ?? "?") \(input["path"] ?? "?")"] = rejected
    }
    return out
  }

  @Test func badLinesInEveryInputLeaveTheFindingsAndRevenueOfTheCleanWorld() throws {
    let world = try RunWorld()
    defer { world.remove() }
    _ = try world.run(["--allow-damaged"])
    let findings = try world.file("findings.csv")
    let revenue = try world.file("revenue.csv")
    let before = try Self.rejected(world)
    let d = world.directory
    func at(_ path: String) -> URL { d.appendingPathComponent(path) }
    var injected: [String: Int] = [:]
    func damage(_ role: String, _ path: String, _ bad: [Bad], after keep: Int = 2) throws {
      try Self.insert(bad, into: at(path), after: keep)
      injected["\(role) \(path)", default: 0] += bad.count
    }
    try damage(
      "app_store.transactions", "exports/apple/transactions.jsonl", Self.json + Self.appStoreExtra, after: 1)
    try damage("play.subscriptions", "exports/play/subscriptions.jsonl", Self.json, after: 1)
    try damage("play.voided", "exports/play/voided.jsonl", Self.json, after: 1)
    let sales = try FileManager.default.contentsOfDirectory(atPath: at("exports/play").path)
      .filter { $0.hasPrefix("salesreport_") }.sorted()
    let salesFile = try #require(sales.last)
    try damage("play.sales", "exports/play/\(salesFile)", Self.csv(columns: 25))
    try damage("app.entitlements", "app/entitlements.csv", Self.csv(columns: 9))
    try damage("app.credentials", "app/credentials.csv", Self.csv(columns: 6))
    try damage("app.goodwill", "app/goodwill.csv", Self.csv(columns: 6))
    try damage("app.credits", "app/credits.csv", Self.csv(columns: 8))
    try damage("app.assignments", "app/assignments.csv", Self.csv(columns: 4))
    let earnings = try FileManager.default.contentsOfDirectory(atPath: at("exports/play/earnings").path)
      .sorted()
    let earningsFile = try #require(earnings.last)
    let earningsPath = "exports/play/earnings/\(earningsFile)"
    try damage("play.earnings", earningsPath, Self.csv(columns: try Self.columns(at(earningsPath), 0x2C)))
    let apple = try FileManager.default.contentsOfDirectory(atPath: at("exports/apple/reports").path).sorted()
    let appleFile = try #require(apple.last)
    let applePath = "exports/apple/reports/\(appleFile)"
    try damage("app_store.sales_reports", applePath, Self.tsv(columns: try Self.columns(at(applePath), 0x09)))
    #expect(injected.values.reduce(0, +) >= 60)
    _ = try world.run(["--allow-damaged"])
    let after = try Self.rejected(world)
    for (key, count) in injected {
      #expect(after[key] == (before[key] ?? 0) + count, "\(key)")
    }
    for (key, count) in before where injected[key] == nil {
      #expect(after[key] == count, "\(key) unchanged")
    }
    #expect(try world.file("findings.csv") == findings)
    #expect(try world.file("revenue.csv") == revenue)
  }
}

extension DamagedWorldTests {
  /// A plain file that fails part-way (here a line longer than the 64 MiB a line may be): the rows before
  /// the failure are in the ledger, and the manifest counts them (it used to say 0 read).
  @Test func aFileThatFailsPartWayCountsTheRowsReadBeforeTheFailure() throws {
    let world = try RunWorld()
    defer { world.remove() }
    _ = try world.run(["--allow-damaged"])
    let clean = try Self.input(world, "app_store.transactions")
    let path = world.directory.appendingPathComponent("exports/apple/transactions.jsonl")
    let handle = try FileHandle(forWritingTo: path)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(repeating: 0x61, count: 64 * 1024 * 1024 + 10) + Data([0x0A]))
    try handle.close()
    let output = try world.run(["--allow-damaged"])
    let failed = try Self.input(world, "app_store.transactions")
    #expect(failed["error"] as? String != nil)
    #expect(failed["accepted"] as? Int == clean["accepted"] as? Int)
    #expect(failed["rejected"] as? Int == clean["rejected"] as? Int)
    #expect((failed["accepted"] as? Int ?? 0) > 0)
    #expect(output.stdout.contains("FAILED"))
  }

  /// The manifest entry of the input in `role`.
  static func input(_ world: RunWorld, _ role: String) throws -> [String: Any] {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    return inputs.first { $0["role"] as? String == role } ?? [:]
  }
}
