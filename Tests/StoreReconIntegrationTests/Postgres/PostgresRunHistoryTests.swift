import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconPostgres

/// The run history behaviour both stores share (RunHistoryBehaviour, run against SQLite in
/// StoreReconSQLiteTests), against a real PostgreSQL: each check on a database of its own.
@Suite(.serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct PostgresRunHistoryTests {
  /// Runs `check` on a fresh database's history store, then drops the database.
  static func onFreshDatabase(_ check: (any RunHistory) throws -> Void) throws {
    let name = try TestDatabase.create()
    defer { TestDatabase.drop(name) }
    let store = PostgresRunHistory(
      connection: try PostgresConnection.connect(TestDatabase.url(database: name)))
    try store.ensureTables()
    try check(store)
  }

  @Test func firstRun() throws { try Self.onFreshDatabase(RunHistoryBehaviour.firstRun) }

  @Test func secondDayNewOpenResolvedAndSince() throws {
    try Self.onFreshDatabase(RunHistoryBehaviour.secondDay)
  }

  @Test func rerunningADateReplacesIt() throws { try Self.onFreshDatabase(RunHistoryBehaviour.rerunReplaces) }

  @Test func backfillIsLeftOutOfTrendAndPrevious() throws {
    try Self.onFreshDatabase(RunHistoryBehaviour.backfillIsLeftOut)
  }

  @Test func recordedGivesTheLatestRow() throws {
    try Self.onFreshDatabase(RunHistoryBehaviour.recordedIsTheLatestRow)
  }

  /// A database whose `storerecon_runs` an older version made (no `backfill` column) gains it, and its
  /// runs count as ordinary ones.
  @Test func anOlderHistoryGainsTheBackfillColumn() throws {
    let name = try TestDatabase.create()
    defer { TestDatabase.drop(name) }
    let connection = try PostgresConnection.connect(TestDatabase.url(database: name))
    let old = RunHistoryStore.schema
      .replacingOccurrences(of: ",\n  backfill          boolean NOT NULL DEFAULT false", with: "")
      .replacingOccurrences(
        of: "ALTER TABLE storerecon_runs ADD COLUMN IF NOT EXISTS backfill boolean NOT NULL DEFAULT false;",
        with: "")
    #expect(!old.contains("backfill boolean"))
    try connection.executeScript(old)
    try connection.execute(
      """
      INSERT INTO storerecon_runs (report_date, as_of, tool_version, options, inputs, findings, new_findings,
        open_findings, resolved_findings, status, started_at, finished_at)
      VALUES ('2026-11-28', now(), 'older', '{}', '[]', 0, 0, 0, 0, 'complete', now(), now())
      """)
    let store = PostgresRunHistory(connection: connection)
    try store.ensureTables()
    let column = try connection.execute(
      "SELECT count(*) FROM information_schema.columns WHERE table_name = 'storerecon_runs' AND column_name = 'backfill'"
    )
    #expect(column.value(0, 0) == "1")
    #expect(
      try store.history(before: RunHistoryBehaviour.d3, keys: []).previous?.date == RunHistoryBehaviour.d2)
  }
}

/// The config's `history` key naming a PostgreSQL database for a run whose app rows are CSV files.
@Suite(.serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct PostgresHistoryKeyTests {
  @Test func csvAppRowsKeepTheirHistoryInTheDatabaseTheKeyNames() throws {
    let name = try TestDatabase.create()
    defer { TestDatabase.drop(name) }
    let world = try RunWorld(extra: ["history": TestDatabase.url(database: name)])
    defer { world.remove() }
    let first = try world.run([], date: "2026-11-28")
    #expect(first.status == 0 || first.status == 3, "\(first.stderr)")
    let second = try world.run([], date: "2026-11-29")
    #expect(second.status == 0 || second.status == 3, "\(second.stderr)")
    #expect(second.stdout.contains("history since the previous run (2026-11-28): "), "\(second.stdout)")
    #expect(try world.file("changes.csv").hasPrefix("state,finding_key,"))
    #expect(
      !FileManager.default.fileExists(atPath: world.directory.appendingPathComponent("history.sqlite").path))
    let runs = try PostgresConnection.connect(TestDatabase.url(database: name)).execute(
      "SELECT string_agg(report_date::text, ',' ORDER BY report_date) FROM storerecon_runs")
    #expect(runs.value(0, 0) == "2026-11-28,2026-11-29")
  }
}
