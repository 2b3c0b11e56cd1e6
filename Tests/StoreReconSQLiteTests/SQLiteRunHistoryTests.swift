import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconSQLite

/// The SQLite run history: the behaviour both stores share (RunHistoryBehaviour, also run against
/// PostgreSQL in StoreReconIntegrationTests), and what only a file can get wrong.
struct SQLiteRunHistoryTests {
  /// A fresh history file in `dir`.
  static func store(_ dir: TempDir) throws -> SQLiteRunHistory {
    try SQLiteRunHistory.open(path: dir.path("history.sqlite"), busyTimeoutSeconds: 1)
  }

  @Test func firstRun() throws {
    let dir = try TempDir()
    try RunHistoryBehaviour.firstRun(try Self.store(dir))
  }

  @Test func secondDayNewOpenResolvedAndSince() throws {
    let dir = try TempDir()
    try RunHistoryBehaviour.secondDay(try Self.store(dir))
  }

  @Test func rerunningADateReplacesIt() throws {
    let dir = try TempDir()
    try RunHistoryBehaviour.rerunReplaces(try Self.store(dir))
  }

  @Test func backfillIsLeftOutOfTrendAndPrevious() throws {
    let dir = try TempDir()
    try RunHistoryBehaviour.backfillIsLeftOut(try Self.store(dir))
  }

  @Test func recordedGivesTheLatestRow() throws {
    let dir = try TempDir()
    try RunHistoryBehaviour.recordedIsTheLatestRow(try Self.store(dir))
  }

  @Test func historySurvivesReopening() throws {
    let dir = try TempDir()
    _ = try RunHistoryBehaviour.record(
      try Self.store(dir), RunHistoryBehaviour.d2, [RunHistoryBehaviour.finding("a1")])
    let reopened = try Self.store(dir)
    #expect(try reopened.latestRun() == RunHistoryBehaviour.d2)
    #expect(try reopened.history(before: RunHistoryBehaviour.d3, keys: []).previous?.findings.count == 1)
  }

  @Test func aFileThatIsNotADatabaseIsAConfigErrorNamingIt() throws {
    let dir = try TempDir()
    let path = try dir.write("history.sqlite", String(repeating: "not a SQLite database\n", count: 40))
    #expect {
      _ = try SQLiteRunHistory.open(path: path)
    } throws: { error in
      guard let error = error as? SQLiteError else { return false }
      return error.kind == .config && error.description.contains(path)
        && error.description.contains("not a database") && error.description.contains("opening")
    }
    // The file is left as it was.
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("not a SQLite database"))
  }

  @Test func aFolderThatCannotBeWrittenIsAnIOErrorNamingTheFile() throws {
    let dir = try TempDir()
    // A folder that does not exist, and one no one may create a file in (root may write anywhere but
    // into /proc).
    let readOnly = dir.path("read-only")
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly) }
    let unwritable = geteuid() == 0 ? "/proc/storerecon-history.sqlite" : readOnly + "/history.sqlite"
    for path in [dir.path("missing/history.sqlite"), unwritable] {
      #expect {
        _ = try SQLiteRunHistory.open(path: path)
      } throws: { error in
        guard let error = error as? SQLiteError else { return false }
        return error.kind == .ioError && error.description.contains(path)
          && error.description.contains("must exist and be writable")
      }
    }
  }

  @Test func aSecondWriterWaitsThenGivesUpWithUnavailable() throws {
    let dir = try TempDir()
    let first = try Self.store(dir)
    let second = try Self.store(dir)
    var waited: [String] = []
    try first.lock(date: RunHistoryBehaviour.d2, timeoutSeconds: 1) { waited.append($0) }
    #expect(waited.isEmpty)
    #expect {
      try second.lock(date: RunHistoryBehaviour.d2, timeoutSeconds: 1) { waited.append($0) }
    } throws: { error in
      guard let error = error as? HistoryStoreError else { return false }
      return error.kind == .unavailable && error.message.contains("holds the lock")
        && error.message.contains(dir.path("history.sqlite"))
    }
    #expect(waited.count == 1)
    // The first run records (which commits and ends its lock); then the second may lock and sees it.
    _ = try RunHistoryBehaviour.record(first, RunHistoryBehaviour.d2, [RunHistoryBehaviour.finding("a1")])
    try second.lock(date: RunHistoryBehaviour.d2, timeoutSeconds: 0) { waited.append($0) }
    #expect(try second.latestRun() == RunHistoryBehaviour.d2)
    second.unlock(date: RunHistoryBehaviour.d2)
  }

  @Test func aRunThatStopsBeforeRecordingLeavesNothing() throws {
    let dir = try TempDir()
    let store = try Self.store(dir)
    try store.lock(date: RunHistoryBehaviour.d2, timeoutSeconds: 0) { _ in }
    store.unlock(date: RunHistoryBehaviour.d2)
    #expect(try store.latestRun() == nil)
    // And the lock is free again.
    try Self.store(dir).lock(date: RunHistoryBehaviour.d2, timeoutSeconds: 0) { _ in }
  }
}
