package import StoreReconCore

/// The run history in an embedded SQLite file (docs/history.md): the same tables as PostgreSQL's,
/// `storerecon_runs` (one row per report date) and `storerecon_findings` (one row per finding key of that
/// run), in SQLite's types. Only fetching and storing lives here; the comparison is ``FindingHistory``.
///
/// The lock: ``lock(date:timeoutSeconds:waiting:)`` opens a `BEGIN IMMEDIATE` write transaction that
/// the run holds until ``unlock(date:)`` commits it, with `busy_timeout` set to `--lock-timeout`, so two
/// runs recording into one history file wait for each other (whatever their dates) and the second gives
/// up after the timeout with SQLITE_BUSY (exit 75). ``record(_:)`` commits that transaction, which ends
/// the lock; a run that stops before recording rolls it back.
package final class SQLiteRunHistory: RunHistory {
  /// The history tables in SQLite's types; idempotent.
  package static let schema = """
    CREATE TABLE IF NOT EXISTS storerecon_runs (
      run_id            INTEGER PRIMARY KEY AUTOINCREMENT,
      report_date       TEXT NOT NULL UNIQUE,
      as_of             TEXT NOT NULL,
      tool_version      TEXT NOT NULL,
      options           TEXT NOT NULL,
      inputs            TEXT NOT NULL,
      findings          INTEGER NOT NULL,
      new_findings      INTEGER NOT NULL,
      open_findings     INTEGER NOT NULL,
      resolved_findings INTEGER NOT NULL,
      previous_date     TEXT,
      status            TEXT NOT NULL,
      started_at        TEXT NOT NULL,
      finished_at       TEXT NOT NULL,
      backfill          INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS storerecon_findings (
      run_id       INTEGER NOT NULL REFERENCES storerecon_runs (run_id) ON DELETE CASCADE,
      report_date  TEXT NOT NULL,
      finding_key  TEXT NOT NULL,
      kind         TEXT NOT NULL,
      reason       TEXT NOT NULL,
      store        TEXT NOT NULL,
      chain_key    TEXT NOT NULL,
      user_id      TEXT NOT NULL,
      product_id   TEXT NOT NULL,
      currency     TEXT,
      amount_minor INTEGER,
      PRIMARY KEY (report_date, finding_key)
    );
    CREATE INDEX IF NOT EXISTS storerecon_findings_key ON storerecon_findings (finding_key, report_date);
    CREATE INDEX IF NOT EXISTS storerecon_findings_run ON storerecon_findings (run_id);

    """

  /// The history file.
  package let path: String
  let connection: SQLite.Connection
  /// The date whose lock (the open write transaction) this store holds.
  private var lockedDate: CivilDate?

  package var location: String { path }

  private init(path: String, connection: SQLite.Connection) {
    self.path = path
    self.connection = connection
  }

  /// Opens the history at `path`, creating the file and its tables when they are missing; waits at
  /// most `busyTimeoutSeconds` for another run creating them. A file that is not a SQLite database, or a
  /// folder that does not exist or cannot be written, is an error naming the file.
  package static func open(path: String, busyTimeoutSeconds: Int = 600) throws(SQLiteError)
    -> SQLiteRunHistory
  {
    let connection: SQLite.Connection
    do {
      connection = try SQLite.Connection.open(path: path, create: true)
    } catch {
      throw SQLiteError(file: path, operation: "opening", error)
    }
    let store = SQLiteRunHistory(path: path, connection: connection)
    connection.setBusyTimeout(milliseconds: Int32(clamping: max(0, busyTimeoutSeconds) * 1000))
    try store.step("opening") { () throws(SQLite.Failure) in
      try connection.execute("PRAGMA foreign_keys = ON")
      // The first read of the file: a file that is not a SQLite database fails here.
      try connection.query("SELECT count(*) FROM sqlite_master")
    }
    try store.step("creating the history tables") { () throws(SQLite.Failure) in
      let present = try connection.query(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('storerecon_runs', 'storerecon_findings')"
      )
      if present.first?.first?.integer == 2 { return }
      try connection.execute("BEGIN IMMEDIATE;\n" + schema + "COMMIT;")
    }
    return store
  }

  /// Runs `body`, a step of `operation`, with SQLite's failure thrown as this file's error.
  func step<T>(_ operation: String, _ body: () throws(SQLite.Failure) -> T) throws(SQLiteError) -> T {
    do {
      return try body()
    } catch {
      throw SQLiteError(file: path, operation: operation, error)
    }
  }

  /// ``step(_:_:)`` with the failure as the protocol throws it.
  func historyStep<T>(_ operation: String, _ body: () throws(SQLite.Failure) -> T) throws(HistoryStoreError)
    -> T
  {
    do {
      return try step(operation, body)
    } catch {
      throw error.historyError
    }
  }

  // MARK: the lock

  package func lock(date: CivilDate, timeoutSeconds: Int, waiting: (String) -> Void) throws(HistoryStoreError)
  {
    do {
      try lockTransaction(date: date, timeoutSeconds: timeoutSeconds, waiting: waiting)
    } catch {
      guard error.kind == .unavailable else { throw error.historyError }
      throw HistoryStoreError(
        .unavailable,
        "another storerecon run holds the lock of run history \(path) (waited \(timeoutSeconds) s); "
          + "try again when it has finished")
    }
  }

  /// `BEGIN IMMEDIATE`: without waiting first, then (saying so) up to `timeoutSeconds`.
  private func lockTransaction(date: CivilDate, timeoutSeconds: Int, waiting: (String) -> Void)
    throws(SQLiteError)
  {
    let operation = "taking the run lock for \(date)"
    connection.setBusyTimeout(milliseconds: 0)
    defer { connection.setBusyTimeout(milliseconds: Int32(clamping: max(0, timeoutSeconds) * 1000)) }
    do {
      try connection.execute("BEGIN IMMEDIATE")
    } catch {
      guard error.code == SQLite.Code.busy, timeoutSeconds > 0 else {
        throw SQLiteError(file: path, operation: operation, error)
      }
      waiting("another run holds the lock of run history \(path); waiting up to \(timeoutSeconds) s")
      connection.setBusyTimeout(milliseconds: Int32(clamping: timeoutSeconds * 1000))
      try step(operation) { () throws(SQLite.Failure) in try connection.execute("BEGIN IMMEDIATE") }
    }
    lockedDate = date
  }

  /// Ends the write transaction of a run that did not record (nothing to keep): rolls it back.
  package func unlock(date: CivilDate) {
    guard lockedDate != nil else { return }
    lockedDate = nil
    _ = try? connection.execute("ROLLBACK")
  }

  /// Whether this store holds the lock (an open write transaction).
  var holdsLock: Bool { lockedDate != nil }

  /// Marks the lock as released (its transaction committed by ``record(_:)``).
  func releasedByCommit() { lockedDate = nil }
}
