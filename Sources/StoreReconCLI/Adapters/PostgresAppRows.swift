import StoreReconPlatform
package import StoreReconCore
package import StoreReconAppRows
package import StoreReconPostgres
package import StoreReconRun

/// The app rows' database of a run: PostgreSQL through libpq (docs/postgresql.md), the adapter the shell
/// hands to the run.
struct PostgresAppRows: AppRowDatabaseOpener {
  func contractQueries(directory: String?, optional: Set<ContractQuery.Contract>) throws(RunError)
    -> [ContractQuery]
  {
    try viaDatabase { () throws(DatabaseError) in
      try QueryFolder.contractQueries(directory: directory, optional: optional)
    }
  }

  func connect(
    _ uri: String, queries: [ContractQuery], historyLock: HistoryLock?, progress: any ProgressSink
  ) throws(RunError) -> any AppRowDatabaseSession {
    let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(uri) }
    progress.note("connected to \(connection.description) (server version \(connection.serverVersion))")
    var historyStore: PostgresRunHistory?
    if let historyLock {
      let store = PostgresRunHistory(connection: connection)
      try viaHistory { () throws(HistoryStoreError) in try store.ensureTables() }
      try viaHistory { () throws(HistoryStoreError) in
        try store.lock(date: historyLock.date, timeoutSeconds: historyLock.timeoutSeconds) {
          progress.note($0)
        }
      }
      historyStore = store
    }
    try viaDatabase { () throws(DatabaseError) in
      try DatabaseAppRows.checkContracts(queries, connection: connection)
    }
    return PostgresSession(connection: connection, postgresHistory: historyStore)
  }
}

/// The database connection of a run whose app rows come from PostgreSQL, and its run history store
/// (holding the report date's lock) when history is kept there.
struct PostgresSession: AppRowDatabaseSession {
  let connection: PostgresConnection
  let postgresHistory: PostgresRunHistory?

  var description: String { connection.description }
  var history: (any RunHistory)? { postgresHistory }

  func read(
    _ query: ContractQuery, fileIndex: Int32, rejects: any RejectSink, rows: inout AppRowSet,
    notifications: NotificationCSVReader
  ) throws(RunError) -> InputCounts {
    try connection.read(
      query, fileIndex: fileIndex, rejects: rejects, rows: &rows, notifications: notifications)
  }

  func endSnapshot() throws(RunError) {
    do {
      try connection.endReadOnlySnapshot()
    } catch {
      throw RunError(error.databaseError("ending the contract queries' read-only transaction"))
    }
  }
}

extension PostgresConnection: AppRowDatabase {
  package func read(
    _ query: ContractQuery, fileIndex: Int32, rejects: any RejectSink, rows: inout AppRowSet,
    notifications: NotificationCSVReader
  ) throws(RunError) -> InputCounts {
    try viaDatabase { () throws(DatabaseError) in
      try DatabaseAppRows.read(
        query, connection: self, fileIndex: fileIndex, rejects: rejects, rows: &rows,
        notifications: notifications
      ).counts
    }
  }
}

extension RunError {
  /// The run error of a PostgreSQL adapter failure.
  init(_ error: DatabaseError) { self.init(kind: error.kind, error.message) }
}

/// `body`, a step of the PostgreSQL adapter, with its failure thrown as the run error of its kind.
func viaDatabase<T>(_ body: () throws(DatabaseError) -> T) throws(RunError) -> T {
  do {
    return try body()
  } catch {
    throw RunError(error)
  }
}
