import StoreReconCore
import StoreReconReports
import StoreReconWorkbooks
import StoreReconRun

/// The workbooks of a run through libxlsxwriter (StoreReconWorkbooks): the adapter the shell hands to
/// the run.
struct XLSXWorkbooks: WorkbookRenderer {
  /// How the reconciliation workbook is laid out (tests make sheets short).
  let options: ReconciliationWorkbook.Options

  func writeReconciliation(_ content: WorkbookContent, to path: String) throws(RunError) {
    do {
      try ReconciliationWorkbook.write(content, to: path, options: options)
    } catch {
      throw RunError(.ioError, error.description)
    }
  }

  func writePriceTests(_ readouts: [Readout], date: CivilDate, to path: String) throws(RunError) {
    do {
      try PriceTestsWorkbook.write(readouts, date: date, to: path)
    } catch {
      throw RunError(.ioError, error.description)
    }
  }
}
