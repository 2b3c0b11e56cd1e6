import StoreReconReports
/// A rectangular block of cells on a named worksheet (zero-based, inclusive): a chart series' source.
package struct XLSXRange: Sendable, Equatable {
  /// The worksheet's name as added to the workbook.
  package var sheet: String
  package var firstRow: Int
  package var firstColumn: Int
  package var lastRow: Int
  package var lastColumn: Int

  /// Creates a range.
  package init(sheet: String, firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) {
    self.sheet = sheet
    self.firstRow = firstRow
    self.firstColumn = firstColumn
    self.lastRow = lastRow
    self.lastColumn = lastColumn
  }

  /// One column from `firstRow` to `lastRow`.
  package static func column(_ column: Int, rows: ClosedRange<Int>, sheet: String) -> XLSXRange {
    XLSXRange(
      sheet: sheet, firstRow: rows.lowerBound, firstColumn: column, lastRow: rows.upperBound,
      lastColumn: column)
  }

  /// One row from `firstColumn` to `lastColumn`.
  package static func row(_ row: Int, columns: ClosedRange<Int>, sheet: String) -> XLSXRange {
    XLSXRange(
      sheet: sheet, firstRow: row, firstColumn: columns.lowerBound, lastRow: row,
      lastColumn: columns.upperBound)
  }

  /// `'Sheet name'!B2:B9` (for messages).
  package var description: String {
    "'\(sheet)'!\(XLSXWorksheet.cellName(row: firstRow, column: firstColumn)):"
      + XLSXWorksheet.cellName(row: lastRow, column: lastColumn)
  }
}
