import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// How `reconciliation.xlsx` reads and prints: counts with thousands separators, page numbers in the
/// footer, the status cell coloured, the Summary's revenue labelled with its period, long reference
/// sheets printing one page.
@Suite(.serialized) struct WorkbookLayoutTests {
  /// Writes `content` into `dir` (which the caller keeps alive while it reads the package).
  static func write(_ content: ReconciliationWorkbook.Content, in dir: TempDir) throws -> XLSXPackage {
    try ReconciliationWorkbook.write(content, to: dir.path("w.xlsx"))
    return XLSXPackage(dir.path("w.xlsx"))
  }

  @Test func countsCarryThousandsSeparators() throws {
    var content = try ReconciliationWorkbookTests.content()
    content.counts[0].chainsPaidThrough = 1_234_567
    let dir = try TempDir()
    let package = try Self.write(content, in: dir)
    let styles = try package.styles()
    let counts = try package.sheet("Counts")
    #expect(counts.cells["C2"]?.value == "1234567")
    #expect(styles.formatCode(style: counts.cells["C2"]?.style ?? -1) == "#,##0")
    let rejects = try package.sheet("Rejects")
    #expect(styles.formatCode(style: rejects.cells["B2"]?.style ?? -1) == "#,##0")
    // The Summary's counts too: read/accepted/rejected of the inputs, findings per reason.
    let summary = try package.sheet("Summary")
    let integers = summary.cells.values.filter { $0.type == nil && $0.value == "3" }
    #expect(!integers.isEmpty)
    #expect(integers.allSatisfy { styles.formatCode(style: $0.style) == "#,##0" })
  }

  @Test func everySheetPrintsItsNameAndPageNumbersInTheFooter() throws {
    let dir = try TempDir()
    let package = try Self.write(try ReconciliationWorkbookTests.content(), in: dir)
    let sheets = try package.entryNames().filter { $0.hasPrefix("xl/worksheets/sheet") }
    #expect(sheets.count == (try package.sheetNames()).count)
    for name in sheets {
      let xml = try package.entry(name)
      #expect(xml.contains("<oddFooter>&amp;L&amp;A&amp;R&amp;P of &amp;N</oddFooter>"), "\(name)")
    }
  }

  @Test(arguments: [
    (RunStatus.Word?.none, "FFE6F4EA"), (.alert, "FFFDE2E1"), (.incomplete, "FFFFF4CE"),
    (.attention, "FFFFF1E5"),
  ])
  func theStatusCellIsColouredByStatus(worst: RunStatus.Word?, fill: String) throws {
    var content = try ReconciliationWorkbookTests.content()
    content.status = RunStatus.decide(
      RunStatus.Inputs(
        breaches: worst == .alert
          ? [AlertBreach(rule: "free_entitlement", text: "free_entitlement: 3 findings > maxCount 2")] : [],
        incomplete: worst == .incomplete ? ["play.sales: no rows"] : [],
        attention: worst == .attention ? ["an input is damaged"] : []))
    #expect(content.status?.worst == worst)
    let dir = try TempDir()
    let package = try Self.write(content, in: dir)
    let styles = try package.entry("xl/styles.xml")
    #expect(styles.contains("<fgColor rgb=\"\(fill)\"/>"), "\(fill)")
    let summary = try package.sheet("Summary")
    #expect((summary.cells["A1"]?.style ?? 0) > 0)
  }

  @Test func theSummarysRevenueSaysItsPeriod() throws {
    var content = try ReconciliationWorkbookTests.content()
    var october = content.revenue[0]
    october.day = CivilDate(year: 2026, month: 10, day: 2)
    content.revenue.insert(october, at: 0)
    let dir = try TempDir()
    let package = try Self.write(content, in: dir)
    let rows = try XLSXPackage.rows(try package.sheet("Summary"), strings: try package.sharedStrings())
    let titles = rows.compactMap { $0.first }.filter { $0.hasPrefix("Revenue, ") }
    #expect(
      titles == [
        "Revenue, 2026-11-29 (report date)", "Revenue, November 2026 to date",
        "Revenue, 2026-10-02 to 2026-11-29 (every day of revenue.csv)",
      ])
    // Nothing on the report date; November's three days; then every day with October's too.
    #expect(rows.contains(["no revenue"]))
    #expect(rows.filter { $0 == ["app_store", "USD", "19.96", "2", "0", "4", "0"] }.count == 1)
    #expect(rows.contains(["app_store", "USD", "29.94", "3", "0", "6", "0"]))
  }

  @Test func longReferenceSheetsPrintTheirFirstPageTheTieOutItsDifferences() throws {
    var content = try ReconciliationWorkbookTests.content()
    content.grants = Array(repeating: content.grants[0], count: 120)
    let dir = try TempDir()
    let package = try Self.write(content, in: dir)
    let workbook = try package.entry("xl/workbook.xml")
    let areas = XLSXPackage.matches("<definedName name=\"_xlnm.Print_Area\"[^>]*>([^<]*)<", in: workbook)
    #expect(areas.map { $0.last ?? "" } == ["Grants!$A$1:$H$51"], "\(areas)")
    // Short sheets print whole: no print area but the Grants sheet's.
  }
}
