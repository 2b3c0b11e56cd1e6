package import StoreReconPlatform
package import StoreReconCore

/// Opens the run history where ``HistoryLocation`` says it is (a SQLite file or a PostgreSQL database,
/// in the shell; docs/history.md): the adapter a run is given.
package protocol RunHistoryOpener {
  /// Opens the history at `location`, creating its tables when missing, and, with `lockDate`, takes
  /// that date's lock (waiting at most `lockTimeoutSeconds`).
  func open(
    _ location: HistoryLocation, lockDate: CivilDate?, lockTimeoutSeconds: Int, progress: any ProgressSink
  ) throws(RunError) -> any RunHistory
}
