import StoreReconReports

extension ReconciliationWorkbook {
  /// Data rows a long reference sheet prints (about one landscape page); the rest stays on screen.
  static let printedRows = 50

  /// Limits what `sheets` print to their header and first `rows` data rows (at least
  /// ``printedRows``), over `columns` columns: for the sheets whose every row is in a file beside the
  /// workbook (tieout.csv, grants.csv, rejects/), so that printing the workbook gives the Summary, the
  /// findings and the revenue in full and not thousands of reference rows. A sheet with fewer rows
  /// prints whole.
  static func limitPrint(_ sheets: [XLSXWorksheet], rows: Int = 0, columns: Int) throws(XLSXError) {
    for sheet in sheets {
      try sheet.setPrintArea(lastRow: max(rows, printedRows), lastColumn: max(columns - 1, 0))
    }
  }
}
