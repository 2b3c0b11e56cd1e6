/// The names of the report files a run writes beside each other in its folder (reports/README.md).
package enum ReportFiles {
  /// The reconciliation workbook.
  package static let reconciliationWorkbook = "reconciliation.xlsx"
  /// The price-test workbook (written when the config has experiments).
  package static let priceTestsWorkbook = "price-tests.xlsx"
}
