import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconSQLite

/// Run history without any database (docs/history.md): the `storerecon` binary on a demo world whose app
/// rows are CSV files, on consecutive dates into one report root, keeps its history in
/// `<report root>/history.sqlite`.
@Suite(.serialized) struct HistoryRunTests {
  static let day1 = "2026-11-28"
  static let day2 = "2026-11-29"

  /// A free entitlement (no store record backs its store key): one finding of its own.
  static func freeEntitlement(_ id: String) -> String {
    "ent_\(id),u_\(id),com.acme.pro.monthly,app_store,18888888888\(id),active,2026-11-01T00:00:00Z,"
      + "2027-11-01T00:00:00Z,\n"
  }

  /// `run` into `<world>/reports/<date>`.
  static func run(_ world: RunWorld, _ date: String, _ args: [String] = []) throws -> Binary.Output {
    try Binary.run(
      ["run", "--config", world.config.path, "--date", date, "--out", reports(world, date), "--quiet"] + args)
  }

  static func reports(_ world: RunWorld, _ date: String = "") -> String {
    world.directory.appendingPathComponent("reports").path + (date.isEmpty ? "" : "/" + date)
  }

  static func rows(_ text: String) -> [[String]] {
    text.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// Appends `line` to the world's entitlements, or removes it.
  static func entitlements(_ world: RunWorld, adding: String? = nil, removing: String? = nil) throws {
    let url = world.directory.appendingPathComponent("app/entitlements.csv")
    var text = try String(contentsOf: url, encoding: .utf8)
    if let adding { text += adding }
    if let removing { text = text.replacingOccurrences(of: removing, with: "") }
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  @Test func twoDaysWithoutADatabaseGiveChangesAndSince() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let gone = Self.freeEntitlement("01")
    let added = Self.freeEntitlement("02")
    try Self.entitlements(world, adding: gone)
    let first = try Self.run(world, Self.day1)
    #expect(first.status == 0 || first.status == 3, "\(first.stderr)")
    #expect(FileManager.default.fileExists(atPath: Self.reports(world) + "/history.sqlite"))
    #expect(first.stdout.contains("history (first recorded run): "), "\(first.stdout)")
    let firstFindings = Self.rows(
      try String(contentsOfFile: Self.reports(world, Self.day1) + "/findings.csv", encoding: .utf8))
    #expect(firstFindings.count > 5)
    #expect(firstFindings.dropFirst().allSatisfy { $0[9] == Self.day1 })
    let goneKey = try #require(firstFindings.first { $0[5] == "u_01" }?[0])

    // The next day: one entitlement gone (resolved), one more (new), the rest still open.
    try Self.entitlements(world, adding: added, removing: gone)
    let second = try Self.run(world, Self.day2)
    #expect(second.status == 0 || second.status == 3, "\(second.stderr)")
    let out = Self.reports(world, Self.day2)
    let changes = Self.rows(try String(contentsOfFile: out + "/changes.csv", encoding: .utf8))
    #expect(changes.first?.first == "state")
    var states: [String: Int] = [:]
    for row in changes.dropFirst() { states[row[0], default: 0] += 1 }
    #expect(
      states["new", default: 0] >= 1 && states["open", default: 0] >= 1 && states["resolved", default: 0] >= 1
    )
    #expect(changes.contains { $0[0] == "resolved" && $0[1] == goneKey && $0[10] == Self.day1 })
    #expect(changes.contains { $0[0] == "new" && $0[6] == "u_02" && $0[10] == Self.day2 })
    #expect(
      second.stdout.contains(
        "history since the previous run (\(Self.day1)): \(states["new"] ?? 0) new, \(states["open"] ?? 0) still open, "
          + "\(states["resolved"] ?? 0) resolved"), "\(second.stdout)")
    // findings.csv's since: the first day for what was open, the second for what is new.
    let findings = Self.rows(try String(contentsOfFile: out + "/findings.csv", encoding: .utf8))
    let since = Dictionary(findings.dropFirst().map { ($0[0], $0[9]) }, uniquingKeysWith: { a, _ in a })
    for row in changes.dropFirst() where row[0] != "resolved" {
      #expect(since[row[1]] == (row[0] == "open" ? Self.day1 : Self.day2), "\(row)")
    }
    #expect(!since.values.contains(""))

    // Re-running the second day replaces its history: the same changes.
    let again = try Self.run(world, Self.day2)
    #expect(again.status == second.status, "\(again.stderr)")
    #expect(Self.rows(try String(contentsOfFile: out + "/changes.csv", encoding: .utf8)) == changes)

    // An earlier date now is a backfill: recorded, said so, left out of the trend.
    let backfill = try Self.run(world, "2026-11-27", ["--allow-missing"])
    #expect(backfill.status == 0 || backfill.status == 3, "\(backfill.stderr)")
    #expect(
      backfill.stdout.contains("backfill: run on today's app rows; left out of trends"), "\(backfill.stdout)")
    let summary = try String(
      contentsOfFile: Self.reports(world, "2026-11-27") + "/summary.txt", encoding: .utf8)
    #expect(summary.contains("Backfill: run on today's app rows; left out of trends."))
    let store = try SQLiteRunHistory.open(path: Self.reports(world) + "/history.sqlite")
    #expect(try store.latestRun() == CivilDate.parse(Self.day2))
    let trendDays = Set(
      try store.dayTotals(through: try #require(CivilDate.parse(Self.day2)), days: 30).map(\.date.description)
    )
    #expect(trendDays == [Self.day1, Self.day2])
  }

  @Test func noHistoryWritesNoFileAndNoChanges() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let run = try Self.run(world, Self.day1, ["--no-history"])
    #expect(run.status == 0 || run.status == 3, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: Self.reports(world) + "/history.sqlite"))
    #expect(!FileManager.default.fileExists(atPath: Self.reports(world, Self.day1) + "/changes.csv"))
  }

  @Test func aSecondRunWaitsForTheHistoryLockThenGivesUpWith75() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.createDirectory(atPath: Self.reports(world), withIntermediateDirectories: true)
    let holder = try SQLiteRunHistory.open(path: Self.reports(world) + "/history.sqlite")
    try holder.lock(date: try #require(CivilDate.parse(Self.day1)), timeoutSeconds: 0) { _ in }
    let refused = try Self.run(world, Self.day1, ["--lock-timeout", "1"])
    #expect(refused.status == 75, "\(refused.stderr)")
    #expect(
      refused.stderr.contains(
        "storerecon: error: another storerecon run holds the lock of run history \(Self.reports(world))/history.sqlite (waited 1 s)"
      ),
      "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: Self.reports(world, Self.day1)))
    holder.unlock(date: try #require(CivilDate.parse(Self.day1)))
    let after = try Self.run(world, Self.day1)
    #expect(after.status == 0 || after.status == 3, "\(after.stderr)")
  }

  @Test func theConfigsHistoryKeyPlacesTheFileAndABadFileIs78() throws {
    let world = try RunWorld(extra: ["history": "state/runs.sqlite"])
    defer { world.remove() }
    let missingFolder = try Self.run(world, Self.day1)
    #expect(missingFolder.status == 74, "\(missingFolder.stderr)")
    #expect(
      missingFolder.stderr.contains("state/runs.sqlite: opening: unable to open database file"),
      "\(missingFolder.stderr)")
    try FileManager.default.createDirectory(
      at: world.directory.appendingPathComponent("state"), withIntermediateDirectories: true)
    let run = try Self.run(world, Self.day1)
    #expect(run.status == 0 || run.status == 3, "\(run.stderr)")
    #expect(
      FileManager.default.fileExists(atPath: world.directory.appendingPathComponent("state/runs.sqlite").path)
    )
    #expect(!FileManager.default.fileExists(atPath: Self.reports(world) + "/history.sqlite"))
    try String(repeating: "this is not a database\n", count: 50).write(
      to: world.directory.appendingPathComponent("state/runs.sqlite"), atomically: true, encoding: .utf8)
    let damaged = try Self.run(world, Self.day2)
    #expect(damaged.status == 78, "\(damaged.stderr)")
    #expect(damaged.stderr.contains("runs.sqlite: opening: file is not a database"), "\(damaged.stderr)")
  }
}
