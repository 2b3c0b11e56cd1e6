/// A rectangular block of cells on a named worksheet (zero-based, inclusive): a chart series' source.
public struct XLSXRange: Sendable, Equatable {
  /// The worksheet's name as added to the workbook.
  public var sheet: String
  public var firstRow: Int
  public var firstColumn: Int
  public var lastRow: Int
  public var lastColumn: Int

  /// Creates a range.
  public init(sheet: String, firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) {
    self.sheet = sheet
    self.firstRow = firstRow
    self.firstColumn = firstColumn
    self.lastRow = lastRow
    self.lastColumn = lastColumn
  }

  /// One column from `firstRow` to `lastRow`.
  public static func column(_ column: Int, rows: ClosedRange<Int>, sheet: String) -> XLSXRange {
    XLSXRange(
      sheet: sheet, firstRow: rows.lowerBound, firstColumn: column, lastRow: rows.upperBound,
      lastColumn: column)
  }

  /// `'Sheet name'!B2:B9` (for messages).
  public var description: String {
    "'\(sheet)'!\(XLSXWorksheet.cellName(row: firstRow, column: firstColumn)):"
      + XLSXWorksheet.cellName(row: lastRow, column: lastColumn)
  }
}
