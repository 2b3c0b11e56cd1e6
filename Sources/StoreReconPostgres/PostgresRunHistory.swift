package import StoreReconCore

/// The run history in PostgreSQL as the run sees any history store (``RunHistory``): ``RunHistoryStore``
/// with its failures as ``HistoryStoreError``, naming the server and the operation.
package struct PostgresRunHistory: RunHistory {
  /// The store on the connection.
  package let store: RunHistoryStore

  /// The history on `connection`.
  package init(connection: PostgresConnection) { self.store = RunHistoryStore(connection: connection) }

  package var location: String { store.connection.description }

  /// Creates the history tables when they are missing (docs/history.md).
  package func ensureTables() throws(HistoryStoreError) {
    try step("creating the run history tables") { () throws(PostgresError) in try store.ensureTables() }
  }

  package func lock(date: CivilDate, timeoutSeconds: Int, waiting: (String) -> Void) throws(HistoryStoreError)
  {
    do {
      try store.lock(date: date, timeoutSeconds: timeoutSeconds, waiting: waiting)
    } catch {
      throw HistoryStoreError(error.kind, error.message)
    }
  }

  package func unlock(date: CivilDate) { store.unlock(date: date) }

  package func history(before date: CivilDate, keys: [String]) throws(HistoryStoreError) -> (
    previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate]
  ) {
    try step("reading the run history") { () throws(PostgresError) in
      try store.history(before: date, keys: keys)
    }
  }

  package func record(_ run: RunRecord) throws(HistoryStoreError) {
    try step("recording the run history") { () throws(PostgresError) in _ = try store.record(run) }
  }

  package func dayTotals(through date: CivilDate, days: Int) throws(HistoryStoreError) -> [HistoryDayTotal] {
    try step("reading the findings trend") { () throws(PostgresError) in
      try store.dayTotals(through: date, days: days)
    }
  }

  package func recorded(keys: [String]) throws(HistoryStoreError) -> [String: RecordedFinding] {
    try step("reading the recorded findings") { () throws(PostgresError) in try store.recorded(keys: keys) }
  }

  package func latestRun() throws(HistoryStoreError) -> CivilDate? {
    try step("reading the latest recorded run") { () throws(PostgresError) in try store.latestRun() }
  }

  /// `body`, a step of `operation`, with its failure as the history error of its kind.
  private func step<T>(_ operation: String, _ body: () throws(PostgresError) -> T) throws(HistoryStoreError)
    -> T
  {
    do {
      return try body()
    } catch {
      let failure = error.databaseError(
        "\(operation) in \(store.connection.description)", queryCode: .software)
      throw HistoryStoreError(failure.kind, failure.message)
    }
  }
}
