import StoreReconCore
import StoreReconPlatform
import StoreReconPostgres
import StoreReconRun
import StoreReconSQLite

/// The run history stores (docs/history.md): a SQLite file or a PostgreSQL database of its own, the
/// adapter the shell hands to the run. (History on the app rows' own database opens with that
/// connection, in ``PostgresAppRows``.)
struct HistoryStores: RunHistoryOpener {
  /// Opens the history at `location`, creating its tables when missing, and, with `lockDate`, takes
  /// that date's lock (waiting at most `lockTimeoutSeconds`). Any command that reads or writes the
  /// history (`run`, `settle`) opens it here.
  func open(
    _ location: HistoryLocation, lockDate: CivilDate?, lockTimeoutSeconds: Int, progress: any ProgressSink
  ) throws(RunError) -> any RunHistory {
    let history: any RunHistory
    switch location {
    case .sqlite(let path):
      do {
        history = try SQLiteRunHistory.open(path: path, busyTimeoutSeconds: lockTimeoutSeconds)
      } catch {
        throw RunError(kind: error.kind, error.description)
      }
    case .postgres(let uri):
      let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(uri) }
      let store = PostgresRunHistory(connection: connection)
      try viaHistory { () throws(HistoryStoreError) in try store.ensureTables() }
      history = store
    }
    if let date = lockDate {
      try viaHistory { () throws(HistoryStoreError) in
        try history.lock(date: date, timeoutSeconds: lockTimeoutSeconds) { progress.note($0) }
      }
    }
    return history
  }
}

/// `body`, a step of a run history store, with its failure thrown as the run error of its kind.
func viaHistory<T>(_ body: () throws(HistoryStoreError) -> T) throws(RunError) -> T {
  do {
    return try body()
  } catch {
    throw RunError(kind: error.kind, error.message)
  }
}
