/// Where the run history is kept: embedded SQLite by default, PostgreSQL where configured
/// (docs/history.md). Both keep the same two tables, `storerecon_runs` and `storerecon_findings`, and
/// behave the same; values go in and out, the comparison itself is ``FindingHistory``.
///
/// A store is used from one thread. A run takes the report date's lock first, reads the history, records
/// itself and reads the trend, then unlocks.
package protocol RunHistory {
  /// Where the history is, as messages name it: the SQLite file's path, or `user@host:port/db`.
  var location: String { get }

  /// Takes the lock of `date`, waiting at most `timeoutSeconds` (0: do not wait) and saying so through
  /// `waiting`; another run holding it longer is an ``FailureKind/unavailable`` error.
  func lock(date: CivilDate, timeoutSeconds: Int, waiting: (String) -> Void) throws(HistoryStoreError)

  /// Releases the lock of `date` (closing the store releases it too).
  func unlock(date: CivilDate)

  /// The previous run (the latest report date before `date` recorded by a run that was not a backfill)
  /// and, for `keys` and the previous run's keys, the earliest report date before `date` that saw each.
  func history(before date: CivilDate, keys: [String]) throws(HistoryStoreError) -> (
    previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate]
  )

  /// Replaces the history of `run.date` with `run`, in one transaction.
  func record(_ run: RunRecord) throws(HistoryStoreError)

  /// Per report date from `days - 1` days before `date` through `date`, per kind and currency: the
  /// findings of the runs that were not backfills and the sum of their amounts (the trend pictures).
  func dayTotals(through date: CivilDate, days: Int) throws(HistoryStoreError) -> [HistoryDayTotal]

  /// For each of `keys` that any recorded run saw, its row from the latest run that saw it.
  func recorded(keys: [String]) throws(HistoryStoreError) -> [String: RecordedFinding]

  /// The latest report date with a recorded run (a backfill included); `nil` when nothing is recorded.
  func latestRun() throws(HistoryStoreError) -> CivilDate?
}
