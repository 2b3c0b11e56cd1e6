package import StoreReconPlatform
package import StoreReconCore
package import StoreReconAppRows

/// Opens the database the app's rows are read from (PostgreSQL, in the shell): the adapter a run is
/// given, so that the run needs no libpq (docs/postgresql.md).
package protocol AppRowDatabaseOpener {
  /// The contract queries of `directory` (the built-in ones for those it has no file of); the
  /// `optional` contracts only when asked for.
  func contractQueries(directory: String?, optional: Set<ContractQuery.Contract>) throws(RunError)
    -> [ContractQuery]

  /// Connects to `uri`; with `historyLock`, keeps the run history in this database and takes the report
  /// date's lock there; then checks that `queries` return their contracts.
  func connect(
    _ uri: String, queries: [ContractQuery], historyLock: HistoryLock?, progress: any ProgressSink
  ) throws(RunError) -> any AppRowDatabaseSession
}

/// The report date whose run history lock a run takes, and how long it waits for it.
package struct HistoryLock: Sendable {
  /// The report date.
  package var date: CivilDate
  /// Seconds to wait for another run of the date (`--lock-timeout`).
  package var timeoutSeconds: Int

  /// A lock of `date`, waiting at most `timeoutSeconds`.
  package init(date: CivilDate, timeoutSeconds: Int) {
    self.date = date
    self.timeoutSeconds = timeoutSeconds
  }
}

/// An open connection to the app rows' database, with the run history store on it when the history
/// lives there (holding the report date's lock).
package protocol AppRowDatabaseSession: AppRowDatabase {
  /// The run history on this connection; `nil` when it is kept elsewhere (or not at all).
  var history: (any RunHistory)? { get }
  /// Ends the read-only transaction the contract queries ran in (docs/postgresql.md).
  func endSnapshot() throws(RunError)
}
