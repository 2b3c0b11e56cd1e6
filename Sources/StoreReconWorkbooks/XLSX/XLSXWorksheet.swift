import CXLSXWriter
import StoreReconCore
import StoreReconReports

/// One worksheet of an ``XLSXWorkbook``: typed cell writes, frozen header rows, autofilter, fitted column
/// widths and charts.
///
/// The worksheet keeps its workbook alive; every call after the workbook was closed throws instead of
/// touching freed memory. It tracks the widest content per column for ``fitColumnWidths(minimum:maximum:)``.
package final class XLSXWorksheet {
  /// Rows per worksheet in Excel (header included).
  package static let maxRows = 1_048_576
  /// Columns per worksheet in Excel.
  package static let maxColumns = 16_384
  /// Characters per cell in Excel.
  package static let maxTextLength = 32_767
  /// The width of a column of long wrapped text (details, what to do), in Excel's character units.
  package static let wideColumnWidth = 80.0
  /// Column width, in Excel's character units, that one landscape page prints at a readable scale
  /// (about 65 % on A4 or Letter; 100 % holds about 130).
  package static let printedWidthPerPage = 200.0
  /// Height of one line of text in points (Calibri 11, Excel's default row).
  package static let lineHeight = 15.0
  /// Excel's highest row, in points.
  package static let maxRowHeight = 409.0
  /// Hyperlinks per worksheet in Excel (`LXW_MAX_NUMBER_URLS`); later links are written as text.
  package static let maxLinks = 65_530
  /// Characters of a hyperlink's address Excel takes; a longer one is written as text.
  package static let maxLinkLength = 2_079

  /// The sheet's name.
  package let name: String
  /// The workbook that owns the sheet.
  package let workbook: XLSXWorkbook
  private let handle: LXW.Sheet
  private var lastRow = -1
  private var contentWidths: [Int] = []
  /// Hyperlinks written so far.
  private var links = 0

  init(name: String, workbook: XLSXWorkbook, handle: LXW.Sheet) {
    self.name = name
    self.workbook = workbook
    self.handle = handle
  }

  /// Writes one cell. In constant-memory mode rows must come in ascending order.
  ///
  /// `fitting: false` leaves the cell out of the column-width estimate (a long section title, say).
  package func write(_ cell: XLSXCell, row: Int, column: Int, fitting: Bool = true) throws(XLSXError) {
    let (r, c) = try position(row, column)
    let sheet = try sheetHandle(row, column, ordered: true)
    let status: lxw_error
    var width = 0
    switch cell {
    case .empty:
      return
    case .link(let url) where isWebLink(url):
      links += 1
      status = sheet.writeURL(r, c, url)
      width = url.unicodeScalars.count
    case .text(let text), .bold(let text), .wrapped(let text), .link(let text), .filled(let text, _, _):
      guard text.utf16.count <= XLSXWorksheet.maxTextLength else {
        throw error(row, column, "text of \(text.utf16.count) characters exceeds Excel's limit of 32,767")
      }
      let format: LXW.Format?
      switch cell {
      case .bold: format = try workbook.format(.bold)
      case .wrapped: format = try workbook.format(.wrapped)
      case .filled(_, let background, let font):
        format = try workbook.format(.filled(background: background, font: font))
      default: format = nil
      }
      // A C string ends at NUL: show it as U+FFFD rather than cut the text.
      let safe = text.utf8.contains(0) ? String(text.map { $0 == "\0" ? "\u{FFFD}" : $0 }) : text
      status = sheet.writeString(r, c, safe, format: format)
      width = text.utf8.count <= 255 ? text.unicodeScalars.count : 255
    case .integer(let value):
      // Whole numbers up to 2^53 are exact doubles; counts and line numbers are far below.
      status = sheet.writeNumber(r, c, Double(value), format: try workbook.format(.count))
      let digits = Currency.decimalDigits(value.magnitude)
      width = digits + (digits - 1) / 3 + (value < 0 ? 1 : 0)
    case .money(let minor, let currency):
      let digits = currency.minorUnits ?? 0
      guard let value = XLSXMoney.cellValue(minor: minor, digits: digits) else {
        throw error(row, column, "amount \(minor) \(currency.code) cannot be written as a number")
      }
      status = sheet.writeNumber(r, c, value, format: try workbook.format(.money(digits: digits)))
      width = XLSXMoney.displayWidth(minor: minor, digits: digits)
    case .date(let date):
      guard (1900...9999).contains(date.year) else {
        throw error(row, column, "date \(date) is outside Excel's years 1900–9999")
      }
      let value = lxw_datetime(
        year: Int32(date.year), month: Int32(date.month), day: Int32(date.day), hour: 0, min: 0, sec: 0)
      status = sheet.writeDatetime(r, c, value, format: try workbook.format(.date))
      width = 10
    case .instant(let instant):
      let (days, msOfDay) = instant.ms.floorDivided(by: Instant.msPerDay)
      let date = CivilDate(daysSinceEpoch: days)
      guard (1900...9999).contains(date.year) else {
        throw error(row, column, "instant \(instant) is outside Excel's years 1900–9999")
      }
      let value = lxw_datetime(
        year: Int32(date.year), month: Int32(date.month), day: Int32(date.day),
        hour: Int32(msOfDay / 3_600_000),
        min: Int32(msOfDay / 60_000 % 60), sec: Double(msOfDay % 60_000) / 1000)
      status = sheet.writeDatetime(r, c, value, format: try workbook.format(.dateTime))
      width = 19
    case .percent(let value):
      guard value.isFinite else { throw error(row, column, "percentage \(value) is not a finite number") }
      status = sheet.writeNumber(r, c, value, format: try workbook.format(.percent))
      width = 8
    case .number(let value):
      guard value.isFinite else { throw error(row, column, "number \(value) is not a finite number") }
      status = sheet.writeNumber(r, c, value, format: nil)
      width = min(String(value).count, 17)
    }
    guard status == LXW_NO_ERROR else { throw error(row, column, XLSXWorkbook.message(status)) }
    lastRow = row
    if fitting { noteWidth(width, column: column) }
  }

  /// Writes `cells` into `row` from `firstColumn` on.
  package func writeRow(_ cells: [XLSXCell], row: Int, firstColumn: Int = 0, fitting: Bool = true)
    throws(XLSXError)
  {
    for (offset, cell) in cells.enumerated() {
      try write(cell, row: row, column: firstColumn + offset, fitting: fitting)
    }
  }

  /// Keeps the top `rows` rows in view while scrolling (a frozen pane), and prints them at the top of
  /// every page.
  package func freezeTopRows(_ rows: Int) throws(XLSXError) {
    let (r, _) = try position(rows, 0)
    let sheet = try sheetHandle(rows, 0)
    sheet.freezePanes(r, 0)
    if rows > 0 { try workbook.check(sheet.repeatRows(0, r - 1), "sheet '\(name)' repeated rows") }
  }

  /// Sets the height of `row` to `lines` lines of text (at most Excel's 409 points), so wrapped text
  /// shows whole on screen and in print: neither Excel nor LibreOffice sizes the rows of a written file
  /// to their wrapped text. Call it before writing the row's cells (constant-memory mode writes a row
  /// once it is left).
  package func setRowLines(_ lines: Int, row: Int) throws(XLSXError) {
    guard lines > 1 else { return }
    let (r, _) = try position(row, 0)
    let sheet = try sheetHandle(row, 0)
    let height = min(Double(lines) * XLSXWorksheet.lineHeight, XLSXWorksheet.maxRowHeight)
    let top = try workbook.format(.plain)
    try workbook.check(sheet.setRowHeight(r, height, format: top), "sheet '\(name)' row \(row + 1) height")
  }

  /// Prints the sheet `pages` pages wide (as many tall as needed), the first `repeating` columns at the
  /// left of every page when it is more than one.
  package func printAcross(pages: Int, repeating: Int = 1) throws(XLSXError) {
    let sheet = try sheetHandle(0, 0)
    let width = UInt16(clamping: max(pages, 1))
    sheet.fitToPages(width: width, height: 0)
    if width > 1 && repeating > 0 {
      let (_, last) = try position(0, repeating - 1)
      try workbook.check(sheet.repeatColumns(0, last), "sheet '\(name)' repeated columns")
    }
  }

  /// The lines `text` takes in a column `width` characters wide: each of its own lines wrapped at
  /// 1.1 × `width` characters. Excel's unit is a digit's width and the average letter of a sentence is
  /// about 0.85 of it, so the estimate leaves a little room rather than cut a line.
  package static func wrappedLines(_ text: String, width: Double) -> Int {
    let perLine = max(Int(width * 1.1), 1)
    var lines = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += max(1, (line.unicodeScalars.count + perLine - 1) / perLine)
    }
    return lines
  }

  /// Prints only rows `0...lastRow` of columns `0...lastColumn` (Excel's print area); the rest stays on
  /// screen. For a row-level sheet whose every row is in a CSV file beside the workbook.
  package func setPrintArea(lastRow: Int, lastColumn: Int) throws(XLSXError) {
    let (r, c) = try position(lastRow, lastColumn)
    let sheet = try sheetHandle(0, 0)
    try workbook.check(sheet.printArea(0, 0, r, c), "sheet '\(name)' print area")
  }

  /// Puts Excel's autofilter buttons on the first row of the range (the table's header).
  package func setAutofilter(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws(XLSXError)
  {
    let (r1, c1) = try position(firstRow, firstColumn)
    let (r2, c2) = try position(lastRow, lastColumn)
    let sheet = try sheetHandle(firstRow, firstColumn)
    try workbook.check(sheet.autofilter(r1, c1, r2, c2), "sheet '\(name)' autofilter")
  }

  /// Sets the width of a column, in Excel's character units.
  package func setColumnWidth(_ width: Double, column: Int) throws(XLSXError) {
    let (_, c) = try position(0, column)
    let sheet = try sheetHandle(0, column)
    try workbook.check(sheet.setColumn(c, c, width: width), "sheet '\(name)' column width")
  }

  /// Sets every written column's width from its widest content (estimated in characters), plus a margin
  /// for the autofilter button, within `minimum...maximum`.
  package func fitColumnWidths(minimum: Int = 6, maximum: Int = 60) throws(XLSXError) {
    for (column, characters) in contentWidths.enumerated() where characters > 0 {
      try setColumnWidth(Double(min(max(characters + 2, minimum), maximum)), column: column)
    }
  }

  /// Widest content seen per column, in characters (for tests and custom layouts).
  package var columnContentWidths: [Int] { contentWidths }

  /// The widths ``fitColumnWidths(minimum:maximum:)`` gives the written columns, in Excel's units.
  package func fittedWidths(minimum: Int = 6, maximum: Int = 60) -> [Double] {
    contentWidths.map { $0 > 0 ? Double(min(max($0 + 2, minimum), maximum)) : 0 }
  }

  /// Inserts a native line chart with its top-left corner at (`row`, `column`). Every series range must
  /// name a worksheet of this workbook.
  package func insert(_ chart: XLSXLineChart, row: Int, column: Int) throws(XLSXError) {
    let operation = "sheet '\(name)' chart '\(chart.title)'"
    let (r, c) = try position(row, column)
    let sheet = try sheetHandle(row, column)
    guard !chart.series.isEmpty else {
      throw XLSXError(
        path: workbook.displayPath, operation: operation, reason: "a chart needs at least one series")
    }
    for series in chart.series {
      for range in [series.categories, series.values] {
        guard workbook.sheetNames.contains(range.sheet) else {
          throw XLSXError(
            path: workbook.displayPath, operation: operation,
            reason: "series '\(series.name)' names no sheet '\(range.sheet)'")
        }
        _ = try position(range.firstRow, range.firstColumn)
        _ = try position(range.lastRow, range.lastColumn)
        guard range.firstRow <= range.lastRow, range.firstColumn <= range.lastColumn else {
          throw XLSXError(
            path: workbook.displayPath, operation: operation, reason: "range \(range.description) is empty")
        }
      }
    }
    let type = chart.style == .intervals ? LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS : LXW_CHART_LINE
    let handle = try workbook.addChart(type: type, operation: operation)
    handle.setTitle(chart.title)
    if let title = chart.xAxisTitle { handle.setName(title, of: .x) }
    if let title = chart.yAxisTitle { handle.setName(title, of: .y) }
    if let format = chart.xAxisNumberFormat { handle.setNumberFormat(format, of: .x) }
    if let format = chart.yAxisNumberFormat { handle.setNumberFormat(format, of: .y) }
    if let range = chart.yAxisRange { handle.setRange(range.lowerBound, range.upperBound, of: .y) }
    if chart.style == .intervals { handle.hideLabelsAndGridlines(of: .y) }
    for (index, series) in chart.series.enumerated() {
      guard let added = handle.addSeries() else {
        throw XLSXError(
          path: workbook.displayPath, operation: operation, reason: "libxlsxwriter could not add a series")
      }
      let (cat, val) = (series.categories, series.values)
      added.setCategories(sheet: cat.sheet, cat.firstRow, cat.firstColumn, cat.lastRow, cat.lastColumn)
      added.setValues(sheet: val.sheet, val.firstRow, val.firstColumn, val.lastRow, val.lastColumn)
      added.setName(series.name)
      if chart.style == .intervals {
        // Each interval a solid line with circles in its own colour; a reference line thin, dashed, grey.
        let colours: [UInt32] = [0x0969DA, 0xBC4C00, 0x1A7F37, 0x8250DF, 0xCF222E, 0xBF8700, 0x1B7C83]
        added.setLine(
          width: series.reference ? 1 : 2.5,
          colour: series.reference ? 0x59636E : colours[index % colours.count],
          dashed: series.reference, marker: series.reference ? LXW_CHART_MARKER_NONE : LXW_CHART_MARKER_CIRCLE
        )
      }
    }
    let xScale = Double(max(chart.width, 1)) / 480
    let yScale = Double(max(chart.height, 1)) / 288
    try workbook.check(sheet.insertChart(r, c, handle, xScale: xScale, yScale: yScale), operation)
  }

  /// Tints the numbers of column `column`, rows `rows`, whatever they become: green at `good` or more,
  /// red at `bad` or less (conditional formats, which Excel and LibreOffice both show).
  package func tint(column: Int, rows: ClosedRange<Int>, good: Double, bad: Double) throws(XLSXError) {
    let operation = "sheet '\(name)' tint of column \(column)"
    let (r0, c) = try position(rows.lowerBound, column)
    let (r1, _) = try position(rows.upperBound, column)
    let sheet = try sheetHandle(rows.lowerBound, column)
    let lxw = try workbook.open(operation)
    for (atLeast, value, colour) in [(true, good, UInt32(0xDAFBE1)), (false, bad, UInt32(0xFFEBE9))] {
      guard let format = lxw.addFormat(background: colour) else {
        throw XLSXError(path: workbook.displayPath, operation: operation, reason: "no format")
      }
      try workbook.check(
        sheet.conditionalFormat(r0, c, r1, c, atLeast: atLeast, value, format: format), operation)
    }
  }

  /// `A1`-style name of a zero-based cell position (`B7` for row 6, column 1).
  package static func cellName(row: Int, column: Int) -> String {
    var letters = ""
    var n = column + 1
    while n > 0 {
      let remainder = (n - 1) % 26
      letters = String(UnicodeScalar(UInt8(65 + remainder))) + letters
      n = (n - 1) / 26
    }
    return letters + String(row + 1)
  }

  /// `text` cut to fit one cell, ending in `… [N characters cut]` when it was longer.
  package static func clipped(_ text: String) -> String {
    guard text.utf16.count > maxTextLength else { return text }
    let marker = "… [\(text.utf16.count) characters, cut]"
    let budget = maxTextLength - marker.utf16.count
    var kept = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      let size = scalar.utf16.count
      if used + size > budget { break }
      kept.append(scalar)
      used += size
    }
    return String(kept) + marker
  }

  // MARK: - Private

  /// Whether `url` is written as a hyperlink: a web address without NUL, short enough, while the
  /// sheet has room for another link.
  private func isWebLink(_ url: String) -> Bool {
    (url.hasPrefix("https://") || url.hasPrefix("http://")) && links < XLSXWorksheet.maxLinks
      && url.utf16.count <= XLSXWorksheet.maxLinkLength && !url.utf8.contains(0)
  }

  /// The sheet while its workbook is open; for a cell write (`ordered`) in constant-memory mode, also
  /// checks the row does not go back.
  private func sheetHandle(_ row: Int, _ column: Int, ordered: Bool = false) throws(XLSXError) -> LXW.Sheet {
    _ = try workbook.open("sheet '\(name)' cell \(XLSXWorksheet.cellName(row: row, column: column))")
    if ordered && workbook.constantMemory && row < lastRow {
      throw error(
        row, column,
        "row \(row + 1) comes after row \(lastRow + 1): constant-memory mode writes rows in order")
    }
    return handle
  }

  private func position(_ row: Int, _ column: Int) throws(XLSXError) -> (lxw_row_t, lxw_col_t) {
    guard row >= 0, row < XLSXWorksheet.maxRows, column >= 0, column < XLSXWorksheet.maxColumns else {
      throw XLSXError(
        path: workbook.displayPath, operation: "sheet '\(name)'",
        reason: "row \(row + 1), column \(column + 1) is outside Excel's 1,048,576 rows × 16,384 columns")
    }
    return (lxw_row_t(row), lxw_col_t(column))
  }

  private func error(_ row: Int, _ column: Int, _ reason: String) -> XLSXError {
    XLSXError(
      path: workbook.displayPath,
      operation: "sheet '\(name)' cell \(XLSXWorksheet.cellName(row: row, column: column))",
      reason: reason)
  }

  private func noteWidth(_ width: Int, column: Int) {
    if column >= contentWidths.count {
      contentWidths.append(contentsOf: repeatElement(0, count: column - contentWidths.count + 1))
    }
    if width > contentWidths[column] { contentWidths[column] = width }
  }
}
