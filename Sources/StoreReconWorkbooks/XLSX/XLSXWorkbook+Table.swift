import StoreReconReports
extension XLSXWorkbook {
  /// Writes a table: a bold header row, frozen, with an autofilter over the rows and fitted column widths.
  ///
  /// A table with more rows than fit on one sheet (`rowLimit` rows per sheet, header included; Excel's
  /// limit by default) continues on `name (2)`, `name (3)`… each with its own header, so no row is ever
  /// cut. `row(i)` gives the cells of data row `i` (0..<`rowCount`); rows are produced and written in
  /// order, one at a time, so a table never needs to exist in memory as cells.
  ///
  /// The columns in `wide` (long, wrapped text: details, what to do) get `wideWidth` whatever their
  /// content; a row whose wrapped text there takes more than one line is made that many lines high.
  /// The sheet prints as many pages wide as its columns need at a readable scale
  /// (``XLSXWorksheet/printedWidthPerPage`` each), its first column repeated on each.
  ///
  /// - Returns: the sheets written, at least one (a table with no rows is a header on its own).
  @discardableResult
  package func writeTable(
    name: String, header: [String], rowCount: Int, rowLimit: Int = XLSXWorksheet.maxRows,
    wide: Set<Int> = [], wideWidth: Double = XLSXWorksheet.wideColumnWidth,
    row: (Int) throws(XLSXError) -> [XLSXCell]
  ) throws(XLSXError) -> [XLSXWorksheet] {
    guard rowLimit >= 2 && rowLimit <= XLSXWorksheet.maxRows else {
      throw XLSXError(
        path: displayPath, operation: "table '\(name)'",
        reason: "row limit \(rowLimit) is not between 2 and \(XLSXWorksheet.maxRows)")
    }
    let perSheet = rowLimit - 1
    let sheetCount = max(1, (rowCount + perSheet - 1) / perSheet)
    var sheets: [XLSXWorksheet] = []
    for part in 0..<sheetCount {
      let sheet = try addWorksheet(part == 0 ? name : "\(name) (\(part + 1))")
      let first = part * perSheet
      let count = min(perSheet, rowCount - first)
      try sheet.writeRow(header.map { .bold($0) }, row: 0)
      for offset in 0..<max(count, 0) {
        let cells = try row(first + offset)
        var lines = 1
        for column in wide where column < cells.count {
          if case .wrapped(let text) = cells[column] {
            lines = max(lines, XLSXWorksheet.wrappedLines(text, width: wideWidth))
          }
        }
        try sheet.setRowLines(lines, row: offset + 1)
        try sheet.writeRow(cells, row: offset + 1)
      }
      try sheet.freezeTopRows(1)
      try sheet.setAutofilter(
        firstRow: 0, firstColumn: 0, lastRow: max(count, 0), lastColumn: max(header.count - 1, 0))
      try sheet.fitColumnWidths()
      for column in wide.sorted() { try sheet.setColumnWidth(wideWidth, column: column) }
      var printed = 0.0
      for (column, width) in sheet.fittedWidths().enumerated() {
        printed += wide.contains(column) ? wideWidth : width
      }
      try sheet.printAcross(pages: Int((printed / XLSXWorksheet.printedWidthPerPage).rounded(.up)))
      sheets.append(sheet)
    }
    return sheets
  }
}
