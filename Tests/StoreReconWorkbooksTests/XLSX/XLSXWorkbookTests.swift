import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// The libxlsxwriter wrapper on its own: typed cells, formats, panes, filters, charts and errors.
struct XLSXWorkbookTests {
  static let properties = XLSXProperties(title: "test", created: CivilDate(year: 2026, month: 11, day: 29))

  func currency(_ code: String) throws -> Currency { try #require(Currency.named(code)) }

  @Test func cellsCarryTheirTypesAndFormats() throws {
    let dir = try TempDir()
    let path = dir.path("cells.xlsx")
    try XLSXWorkbook.write(to: path, properties: Self.properties) {
      (workbook: XLSXWorkbook) throws(XLSXError) in
      let sheet = try workbook.addWorksheet("Cells")
      try sheet.writeRow(
        [
          .bold("head"), .text("a & <b>"), .integer(42),
          .money(minor: 499, currency: try! self.currency("USD")),
          .money(minor: 1400, currency: try! self.currency("JPY")),
          .money(minor: 1500, currency: try! self.currency("KWD")),
          .money(minor: 12_345, currency: try! self.currency("CLF")),
          .date(CivilDate(year: 2026, month: 11, day: 29)),
          .instant(Instant(ms: 1_764_417_600_500)), .percent(0.125), .number(2.5), .empty,
          .money(minor: -123_456_789, currency: try! self.currency("USD")),
        ], row: 0)
    }
    let package = XLSXPackage(path)
    let sheet = try package.sheet("Cells")
    let styles = try package.styles()
    let strings = try package.sharedStrings()
    func cell(_ ref: String) throws -> XLSXPackage.Cell { try #require(sheet.cells[ref], "\(ref)") }

    #expect(XLSXPackage.text(try cell("A1"), strings: strings) == "head")
    #expect(styles.isBold(style: try cell("A1").style))
    #expect(XLSXPackage.text(try cell("B1"), strings: strings) == "a & <b>")
    #expect(!styles.isBold(style: try cell("B1").style))
    #expect(try cell("C1").type == nil && cell("C1").value == "42")
    // Money: numbers (no t attribute), the currency's own number of decimals.
    for (ref, value, format) in [
      ("D1", "4.99", "#,##0.00"), ("E1", "1400", "#,##0"), ("F1", "1.5", "#,##0.000"),
      ("G1", "1.2345", "#,##0.0000"),
      ("M1", "-1234567.89", "#,##0.00"),
    ] {
      let c = try cell(ref)
      #expect(c.type == nil, "\(ref) is text")
      #expect(c.value == value, "\(ref)")
      #expect(styles.formatCode(style: c.style) == format, "\(ref)")
    }
    // Dates are serial numbers: 2026-11-29 is day 46355 of Excel's 1900 system.
    #expect(try cell("H1").value == "46355")
    #expect(styles.formatCode(style: try cell("H1").style) == "yyyy-mm-dd")
    // 2025-11-29T12:00:00.500Z
    let serial = try #require(Double(try cell("I1").value ?? ""))
    #expect(abs(serial - (45990 + (12 * 3600 + 0.5) / 86_400)) < 1e-9)
    #expect(styles.formatCode(style: try cell("I1").style) == "yyyy-mm-dd hh:mm:ss")
    #expect(try cell("J1").value == "0.125" && styles.formatCode(style: cell("J1").style) == "0.00%")
    #expect(try cell("K1").value == "2.5")
    #expect(sheet.cells["L1"] == nil)
    // Pinned document properties.
    let core = try package.entry("docProps/core.xml")
    #expect(
      core.contains("<dcterms:created xsi:type=\"dcterms:W3CDTF\">2026-11-29T00:00:00Z</dcterms:created>"))
    #expect(
      core.contains("<dcterms:modified xsi:type=\"dcterms:W3CDTF\">2026-11-29T00:00:00Z</dcterms:modified>"))
    #expect(
      core.contains("<dc:title>test</dc:title>") && core.contains("<dc:creator>storerecon</dc:creator>"))
  }

  @Test func tableContinuesOnNextSheetsWithHeaderFrozenAndFiltered() throws {
    let dir = try TempDir()
    let path = dir.path("table.xlsx")
    var sheetNames: [String] = []
    try XLSXWorkbook.write(to: path, properties: Self.properties) {
      (workbook: XLSXWorkbook) throws(XLSXError) in
      let sheets = try workbook.writeTable(name: "Rows", header: ["n", "label"], rowCount: 25, rowLimit: 10) {
        i in
        [.integer(Int64(i)), .text("row \(i)")]
      }
      sheetNames = sheets.map(\.name)
      try workbook.writeTable(name: "Empty", header: ["a", "b", "c"], rowCount: 0, rowLimit: 10) { _ in [] }
    }
    #expect(sheetNames == ["Rows", "Rows (2)", "Rows (3)"])
    let package = XLSXPackage(path)
    #expect(try package.sheetNames() == ["Rows", "Rows (2)", "Rows (3)", "Empty"])
    var seen: [String] = []
    for (name, dataRows) in [("Rows", 9), ("Rows (2)", 9), ("Rows (3)", 7)] {
      let sheet = try package.sheet(name)
      #expect(sheet.rowCount == dataRows + 1, "\(name)")
      #expect(sheet.frozenRows == 1, "\(name)")
      #expect(sheet.autofilter == "A1:B\(dataRows + 1)", "\(name)")
      #expect(sheet.cells["A1"]?.type != nil, "\(name) header is text")
      for row in 2...(dataRows + 1) { seen.append(sheet.cells["A\(row)"]?.value ?? "?") }
    }
    // Every row once, in order, none cut.
    #expect(seen == (0..<25).map { String($0) })
    let empty = try package.sheet("Empty")
    #expect(empty.rowCount == 1 && empty.frozenRows == 1 && empty.autofilter == "A1:C1")
  }

  @Test func wrappedRowsAreTallEnoughAndWideTablesPrintAcrossPagesAtAReadableScale() throws {
    let dir = try TempDir()
    let path = dir.path("print.xlsx")
    let long = String(repeating: "word ", count: 60)  // 300 characters: 4 lines of an 80-wide column
    try XLSXWorkbook.write(to: path, properties: Self.properties) {
      (workbook: XLSXWorkbook) throws(XLSXError) in
      // 12 columns of 20 characters and an 80-wide detail: 320 characters, two pages at 200 each.
      let header = (0..<12).map { "column_number_\($0)__" } + ["detail"]
      try workbook.writeTable(name: "Wide", header: header, rowCount: 3, wide: [12]) { i in
        (0..<12).map { _ in XLSXCell.text("x") } + [.wrapped(i == 1 ? long : "short")]
      }
      try workbook.writeTable(name: "Narrow", header: ["a", "b"], rowCount: 1) { _ in
        [.text("1"), .text("2")]
      }
    }
    let package = XLSXPackage(path)
    let wide = try package.sheet("Wide").xml
    #expect(wide.contains("fitToWidth=\"2\""), "320 characters print two pages wide")
    let rows = XLSXPackage.matches("<row r=\"(\\d+)\"([^>]*)>", in: wide)
    let tall = rows.filter { $0.count == 3 && $0[2].contains("customHeight=\"1\"") }
    #expect(tall.map { $0[1] } == ["3"], "only the row of long text is made taller: \(rows)")
    #expect(tall.first?[2].contains("ht=\"60\"") == true, "4 lines of 15 points: \(tall)")
    #expect(XLSXWorksheet.wrappedLines(long, width: 80) == 4)
    #expect(XLSXWorksheet.wrappedLines("one\ntwo", width: 80) == 2)
    let titles = XLSXPackage.matches(
      "<definedName name=\"_xlnm.Print_Titles\"[^>]*>([^<]*)<", in: try package.entry("xl/workbook.xml"))
    #expect(titles.contains { $0.last == "Wide!$A:$A,Wide!$1:$1" }, "the first column repeats: \(titles)")
    #expect(titles.contains { $0.last == "Narrow!$1:$1" }, "\(titles)")
    let narrow = try package.sheet("Narrow").xml
    #expect(narrow.contains("fitToHeight=\"0\"") && !narrow.contains("fitToWidth=\"2\""))
  }

  @Test func columnWidthsFollowTheContent() throws {
    let dir = try TempDir()
    let path = dir.path("widths.xlsx")
    try XLSXWorkbook.write(to: path, properties: Self.properties) {
      (workbook: XLSXWorkbook) throws(XLSXError) in
      let sheet = try workbook.addWorksheet("W")
      try sheet.writeRow([.text("id"), .text(String(repeating: "x", count: 500))], row: 0)
      try sheet.writeRow([.text("a-thirty-character-identifier!"), .text("short")], row: 1)
      try sheet.fitColumnWidths(minimum: 6, maximum: 60)
    }
    let xml = try XLSXPackage(path).sheet("W").xml
    let widths = XLSXPackage.matches(#"<col min="(\d+)" max="\d+" width="([0-9.]+)""#, in: xml).map {
      ($0[1], Double($0[2]) ?? 0)
    }
    #expect(widths.count == 2)
    #expect(widths.first.map { $0.1 > 32 && $0.1 < 34 } == true, "\(widths)")  // 30 characters + 2
    #expect(widths.last.map { $0.1 > 60 && $0.1 < 61 } == true, "\(widths)")  // capped at 60
  }

  @Test func lineChartReadsItsSeriesFromSheetRanges() throws {
    let dir = try TempDir()
    let path = dir.path("chart.xlsx")
    try XLSXWorkbook.write(to: path, properties: Self.properties) {
      (workbook: XLSXWorkbook) throws(XLSXError) in
      try workbook.writeTable(name: "Price tests", header: ["day", "control", "high"], rowCount: 3) { i in
        [
          .date(CivilDate(year: 2026, month: 11, day: 1 + i)), .percent(0.1 + Double(i) / 100),
          .percent(0.08),
        ]
      }
      let sheet = try workbook.addWorksheet("Chart")
      let days = XLSXRange.column(0, rows: 1...3, sheet: "Price tests")
      var chart = XLSXLineChart(
        title: "Conversion by arm", xAxisTitle: "day", yAxisTitle: "conversion",
        series: [
          .init(name: "control", categories: days, values: .column(1, rows: 1...3, sheet: "Price tests")),
          .init(name: "high", categories: days, values: .column(2, rows: 1...3, sheet: "Price tests")),
        ])
      chart.width = 960
      chart.yAxisNumberFormat = "0%"
      try sheet.insert(chart, row: 1, column: 1)
    }
    let package = XLSXPackage(path)
    #expect(try package.entryNames().contains("xl/charts/chart1.xml"))
    let chart = try package.entry("xl/charts/chart1.xml")
    #expect(chart.contains("<c:lineChart>"))
    #expect(chart.contains("<c:f>'Price tests'!$A$2:$A$4</c:f>"))
    #expect(chart.contains("<c:f>'Price tests'!$B$2:$B$4</c:f>"))
    #expect(chart.contains("<c:f>'Price tests'!$C$2:$C$4</c:f>"))
    #expect(chart.contains("Conversion by arm"))
    #expect(chart.contains("<c:numFmt formatCode=\"0%\" sourceLinked=\"0\"/>"))
    #expect(try package.sheet("Chart").xml.contains("<drawing r:id="))
  }

  @Test func chartWithUnknownSheetIsAnError() throws {
    let dir = try TempDir()
    let workbook = try XLSXWorkbook(path: dir.path("bad-chart.xlsx"), properties: Self.properties)
    let sheet = try workbook.addWorksheet("S")
    let range = XLSXRange.column(0, rows: 1...3, sheet: "Nope")
    let chart = XLSXLineChart(title: "t", series: [.init(name: "a", categories: range, values: range)])
    let error = #expect(throws: XLSXError.self) { try sheet.insert(chart, row: 0, column: 0) }
    #expect(error?.description.contains("names no sheet 'Nope'") == true)
    let empty = XLSXLineChart(title: "t", series: [])
    #expect(throws: XLSXError.self) { try sheet.insert(empty, row: 0, column: 0) }
  }

  @Test func errorsAreValuesNotCrashes() throws {
    let dir = try TempDir()
    let path = dir.path("errors.xlsx")
    let workbook = try XLSXWorkbook(path: path, properties: Self.properties)
    let sheet = try workbook.addWorksheet("Data")

    // Invalid and duplicate sheet names.
    #expect(throws: XLSXError.self) { try workbook.addWorksheet("bad/name") }
    #expect(throws: XLSXError.self) { try workbook.addWorksheet(String(repeating: "n", count: 32)) }
    let duplicate = #expect(throws: XLSXError.self) { try workbook.addWorksheet("data") }
    #expect(duplicate?.description.hasPrefix("cannot write workbook \(path): add sheet 'data': ") == true)

    // Out of Excel's grid; too long a text; not a number.
    #expect(throws: XLSXError.self) { try sheet.write(.integer(1), row: -1, column: 0) }
    #expect(throws: XLSXError.self) { try sheet.write(.integer(1), row: XLSXWorksheet.maxRows, column: 0) }
    #expect(throws: XLSXError.self) { try sheet.write(.integer(1), row: 0, column: XLSXWorksheet.maxColumns) }
    let long = #expect(throws: XLSXError.self) {
      try sheet.write(.text(String(repeating: "y", count: 40_000)), row: 6, column: 1)
    }
    #expect(long?.operation == "sheet 'Data' cell B7")
    #expect(throws: XLSXError.self) { try sheet.write(.number(.nan), row: 0, column: 0) }
    #expect(throws: XLSXError.self) {
      try sheet.write(.date(CivilDate(year: 1850, month: 1, day: 1)), row: 0, column: 0)
    }
    #expect(throws: XLSXError.self) {
      try workbook.writeTable(name: "T", header: ["a"], rowCount: 1, rowLimit: 1) { _ in [] }
    }

    // A clipped text fits and says it was cut.
    let clipped = XLSXWorksheet.clipped(String(repeating: "é", count: 40_000))
    #expect(clipped.utf16.count <= XLSXWorksheet.maxTextLength)
    #expect(clipped.hasSuffix("… [40000 characters, cut]"))
    try sheet.write(.text(clipped), row: 1, column: 0)
    #expect(XLSXWorksheet.clipped("short") == "short")

    // Close exactly once; every later call throws instead of touching freed memory.
    try workbook.close()
    #expect(workbook.isClosed)
    let again = #expect(throws: XLSXError.self) { try workbook.close() }
    #expect(again?.reason == "the workbook is already closed")
    #expect(throws: XLSXError.self) { try sheet.write(.text("late"), row: 0, column: 0) }
    #expect(throws: XLSXError.self) { try workbook.addWorksheet("Late") }
    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test func closeFailureIsAThrownError() throws {
    let workbook = try XLSXWorkbook(path: "/nonexistent-storerecon-dir/x.xlsx", properties: Self.properties)
    _ = try workbook.addWorksheet("S")
    let error = #expect(throws: XLSXError.self) { try workbook.close() }
    #expect(error?.operation == "close")
    #expect(error?.reason.contains("Error creating output xlsx file") == true)
  }

  @Test func failedBuildLeavesNoFile() throws {
    let dir = try TempDir()
    let path = dir.path("out/failed.xlsx")
    #expect(throws: XLSXError.self) {
      try XLSXWorkbook.write(to: path, properties: Self.properties) {
        (workbook: XLSXWorkbook) throws(XLSXError) in
        let sheet = try workbook.addWorksheet("S")
        try sheet.write(.text("fine"), row: 0, column: 0)
        try sheet.write(.integer(1), row: -5, column: 0)
      }
    }
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).isEmpty)
    // A workbook dropped without close() writes nothing.
    do {
      let dropped = try XLSXWorkbook(path: dir.path("dropped.xlsx"), properties: Self.properties)
      _ = try dropped.addWorksheet("S")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.path("dropped.xlsx")))
  }

  @Test func constantMemoryWritesRowsInOrderWithInlineStrings() throws {
    let dir = try TempDir()
    let path = dir.path("constant.xlsx")
    let workbook = try XLSXWorkbook(path: path, properties: Self.properties, constantMemory: true)
    let sheet = try workbook.addWorksheet("Big")
    try sheet.writeRow([.bold("amount"), .bold("currency")], row: 0)
    try sheet.writeRow([.money(minor: 499, currency: try currency("USD")), .text("USD")], row: 1)
    try sheet.writeRow([.money(minor: 700, currency: try currency("JPY")), .text("JPY")], row: 2)
    let backwards = #expect(throws: XLSXError.self) { try sheet.write(.text("late"), row: 1, column: 2) }
    #expect(backwards?.reason.contains("constant-memory mode writes rows in order") == true)
    try sheet.freezeTopRows(1)
    try sheet.setAutofilter(firstRow: 0, firstColumn: 0, lastRow: 2, lastColumn: 1)
    try sheet.fitColumnWidths()
    try workbook.close()

    let package = XLSXPackage(path)
    #expect(try !package.entryNames().contains("xl/sharedStrings.xml"))
    let big = try package.sheet("Big")
    let styles = try package.styles()
    #expect(big.cells["A2"]?.type == nil && big.cells["A2"]?.value == "4.99")
    #expect(styles.formatCode(style: big.cells["A3"]?.style ?? -1) == "#,##0")
    #expect(XLSXPackage.text(big.cells["B3"], strings: []) == "JPY")
    #expect(big.frozenRows == 1 && big.autofilter == "A1:B3")
  }

  @Test func sameContentSameBytesSecondsApart() throws {
    let dir = try TempDir()
    func build(_ path: String) throws {
      try XLSXWorkbook.write(to: path, properties: Self.properties) {
        (workbook: XLSXWorkbook) throws(XLSXError) in
        try workbook.writeTable(name: "T", header: ["a", "b"], rowCount: 5) { i in
          [.text("r\(i)"), .instant(Instant(ms: 1_764_417_600_000 + Int64(i)))]
        }
      }
    }
    try build(dir.path("one.xlsx"))
    Thread.sleep(forTimeInterval: 2.1)  // past the zip format's two-second clock resolution
    try build(dir.path("two.xlsx"))
    let one = try Data(contentsOf: URL(fileURLWithPath: dir.path("one.xlsx")))
    let two = try Data(contentsOf: URL(fileURLWithPath: dir.path("two.xlsx")))
    #expect(one == two)
    // Every zip entry is stamped 1980-01-01 00:00, not the clock.
    let listing = String(
      decoding: try Tool.run("/usr/bin/env", ["unzip", "-l", dir.path("one.xlsx")], input: []), as: UTF8.self)
    let stamped = listing.split(separator: "\n").filter { $0.contains(".xml") || $0.contains(".rels") }
    #expect(!stamped.isEmpty)
    #expect(stamped.allSatisfy { $0.contains("1980-01-01 00:00") }, "\(stamped)")
  }
}
