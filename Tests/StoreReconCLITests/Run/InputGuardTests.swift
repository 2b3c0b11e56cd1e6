import Foundation
import Testing
import StoreReconReports
import StoreReconTestSupport

@testable import StoreReconPlatform

/// What the run refuses to read, and when an input counts as damaged, as a user meets it: exit codes,
/// one line on stderr, the summary's first line, the rejects file and the workbook.
@Suite(.serialized) struct InputGuardTests {
  static func firstLine(_ world: RunWorld) throws -> String {
    TextWrap.firstItem(of: try world.file("summary.txt"))
  }

  /// Appends `count` lines that are not JSON to the world's voided purchases.
  static func appendBadVoided(_ world: RunWorld, count: Int) throws {
    let path = world.directory.appendingPathComponent("exports/play/voided.jsonl")
    let handle = try FileHandle(forWritingTo: path)
    try handle.seekToEnd()
    let bad = (0..<count).map { "not json \($0)\n" }.joined()
    try handle.write(contentsOf: Data(bad.utf8))
    try handle.close()
  }

  @Test func aFIFOInputIsRefusedAtOnceWithExit66() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let path = world.directory.appendingPathComponent("exports/play/voided.jsonl").path
    try FileManager.default.removeItem(atPath: path)
    let mkfifo = Process()
    mkfifo.executableURL = URL(fileURLWithPath: "/usr/bin/mkfifo")
    mkfifo.arguments = [path]
    try mkfifo.run()
    mkfifo.waitUntilExit()
    try #require(mkfifo.terminationStatus == 0)
    // Opening the pipe would block forever (no writer): the run must refuse it before any open.
    let run = try world.run([])
    #expect(run.status == 66, "\(run.stderr)")
    #expect(
      run.stderr.contains("play.voided exports/play/voided.jsonl is a pipe (FIFO) or other special file"),
      "\(run.stderr)")
  }

  @Test func anInputOutsideTheConfigsFolderNeedsAllowOutside() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let outside = try TempDir()
    let moved = outside.path("goodwill.csv")
    try FileManager.default.moveItem(
      atPath: world.directory.appendingPathComponent("app/goodwill.csv").path, toPath: moved)
    var root =
      try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var app = root["app"] as? [String: Any] ?? [:]
    app["goodwill"] = moved
    root["app"] = app
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)
    let refused = try world.run([])
    #expect(refused.status == 78, "\(refused.stderr)")
    #expect(refused.stderr.contains("outside the config's folder"), "\(refused.stderr)")
    #expect(refused.stderr.contains("\"allowOutside\": true"), "\(refused.stderr)")

    // A link inside the folder to the file outside is outside too.
    app["goodwill"] = "app/goodwill-link.csv"
    root["app"] = app
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)
    try FileManager.default.createSymbolicLink(
      atPath: world.directory.appendingPathComponent("app/goodwill-link.csv").path,
      withDestinationPath: moved)
    #expect(try world.run([]).status == 78)

    try world.setConfig(["allowOutside": true])
    let allowed = try world.run([])
    #expect(allowed.status == 0, "\(allowed.stderr)")
  }

  @Test func anEntitlementsFileWithOnlyItsHeaderIsAttention() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let path = world.directory.appendingPathComponent("app/entitlements.csv")
    let header = try String(contentsOf: path, encoding: .utf8).prefix { $0 != "\n" }
    try Data((header + "\n").utf8).write(to: path)
    let run = try world.run([])
    #expect(run.status == 0, "\(run.stderr)")
    let line = try Self.firstLine(world)
    #expect((line.hasPrefix("ATTENTION — ") && line.contains(" — 2026-11-29")), "\(line)")
    #expect(line.contains("app.entitlements app/entitlements.csv holds no row while the store exports hold"))
  }

  @Test func aDamagedInputStopsTheRunWithExit65UnlessAllowed() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.appendBadVoided(world, count: 40)
    let stopped = try world.run([])
    #expect(stopped.status == 65, "\(stopped.stderr)")
    let lines = stopped.stderr.split(separator: "\n").filter { $0.contains("is damaged") }
    #expect(lines.count == 1, "\(stopped.stderr)")
    #expect(lines.first?.contains("play.voided exports/play/voided.jsonl is damaged: ") == true)
    #expect(lines.first?.contains("--allow-damaged") == true)
    #expect(!FileManager.default.fileExists(atPath: world.out.path), "nothing published")

    let allowed = try world.run(["--allow-damaged"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let line = try Self.firstLine(world)
    #expect((line.hasPrefix("ATTENTION — ") && line.contains(" — 2026-11-29")), "\(line)")
    #expect(line.contains("play.voided exports/play/voided.jsonl is damaged: "), "\(line)")

    // The threshold is the config's: 40 bad lines of a few dozen are within 99 %.
    try world.setConfig(["damaged": ["maxRejectPercent": 99.5]])
    let relaxed = try world.run([])
    #expect(relaxed.status == 0, "\(relaxed.stderr)")
    #expect(!(try Self.firstLine(world)).contains("damaged"))
    // A few bad lines (below minRejects) never make an input damaged.
    try world.setConfig(["damaged": ["maxRejectPercent": 0, "minRejects": 50]])
    #expect(try world.run([]).status == 0)
    try world.setConfig(["damaged": ["maxRejects": 5]])
    #expect(try world.run([]).status == 65)
    try world.setConfig(["damaged": ["maxRejectPercent": "1"]])
    #expect(try world.run([]).status == 78)
    let help = try Binary.run(["run", "--help"])
    #expect(help.stdout.contains("--allow-damaged     Reconcile an input whose rejects pass"))
  }

  @Test func rejectsAreStreamedToTheirFileAndTheWorkbookShowsTheFirstThousand() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.appendBadVoided(world, count: 2_500)
    let run = try world.run(["--allow-damaged"])
    #expect(run.status == 0, "\(run.stderr)")
    let name = "rejects/exports_play_voided.jsonl.csv"
    let csv = try world.file(name)
    let rows = csv.split(separator: "\n")
    #expect(rows.first == "file,line,reason,raw")
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let input = (manifest?["inputs"] as? [[String: Any]] ?? []).first {
      $0["role"] as? String == "play.voided"
    }
    let rejected = try #require(input?["rejected"] as? Int)
    #expect(rejected >= 2_500)
    #expect(rows.count - 1 == rejected)
    #expect(rows.last?.contains("not json 2499") == true)
    let output = (manifest?["outputs"] as? [[String: Any]] ?? []).first { $0["file"] as? String == name }
    #expect(output?["bytes"] as? Int == csv.utf8.count)
    #expect(output?["sha256"] as? String == SHA256Digest.hex(of: Array(csv.utf8)))

    let package = XLSXPackage(world.out.appendingPathComponent("reconciliation.xlsx").path)
    let sheet = try XLSXPackage.rows(try package.sheet("Rejects"), strings: try package.sharedStrings())
    let all = (manifest?["inputs"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["rejected"] as? Int ?? 0) }
    let pointers = sheet.filter { $0.contains { $0.contains("not shown here: every one is in rejects/") } }
    #expect(!pointers.isEmpty)
    #expect(pointers.contains { row in row.contains { $0.contains(name) } })
    // Header, 1,000 rows, the pointer rows (one per input with rejects left out).
    #expect(sheet.count == 1 + 1_000 + pointers.count, "\(sheet.count) rows for \(all) rejects")
  }

  @Test func aDamagedGzipCountsNoneOfItsRows() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // Another day's transactions (other ids), gzipped, then cut in half: none of them may count.
    let source = try String(
      contentsOf: world.directory.appendingPathComponent("exports/apple/transactions.jsonl"), encoding: .utf8)
    let other = source.replacingOccurrences(of: "\"transactionId\":\"", with: "\"transactionId\":\"77")
    let full = try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array(other.utf8))
    let baseline = try world.run([])
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let revenue = try world.file("revenue.csv")
    let counts = try world.file("counts.csv")
    var root =
      try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var appStore = root["appStore"] as? [String: Any] ?? [:]
    // Not `exports/apple/*.jsonl`: that would match the notification history too, a file of another key.
    appStore["transactions"] = ["exports/apple/transactions.jsonl", "exports/apple/*.jsonl.gz"]
    root["appStore"] = appStore
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)
    try Data(full[0..<(full.count / 2)]).write(
      to: world.directory.appendingPathComponent("exports/apple/more.jsonl.gz"))
    let damaged = try world.run([])
    #expect(damaged.status == 65, "\(damaged.stderr)")
    #expect(try world.file("revenue.csv") == revenue)
    #expect(try world.file("counts.csv") == counts)
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let input = (manifest?["inputs"] as? [[String: Any]] ?? []).first {
      $0["path"] as? String == "exports/apple/more.jsonl.gz"
    }
    #expect(input?["read"] as? Int == 0)
    #expect(input?["accepted"] as? Int == 0)
    #expect(input?["rejected"] as? Int == 0)
    #expect((input?["error"] as? String)?.contains("gzip data ends early") == true)
    #expect((input?["error"] as? String)?.contains("at byte \(full.count / 2) of the file") == true)
  }
}
