package import StoreReconCore
package import StoreReconReports

/// Writes the workbooks (libxlsxwriter, in the shell): the adapter a run is given, so that the run
/// needs no libxlsxwriter. A failure is an I/O error of the run.
package protocol WorkbookRenderer: Sendable {
  /// Writes `reconciliation.xlsx` with `content` to `path`.
  func writeReconciliation(_ content: WorkbookContent, to path: String) throws(RunError)
  /// Writes `price-tests.xlsx` with the experiments' `readouts` of report date `date` to `path`.
  func writePriceTests(_ readouts: [Readout], date: CivilDate, to path: String) throws(RunError)
}
