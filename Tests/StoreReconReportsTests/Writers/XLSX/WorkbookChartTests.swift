import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// The native charts of the workbooks, read back from the package XML (xl/charts/chart*.xml).
struct WorkbookChartTests {
  @Test(arguments: [false, true])
  func revenueTrendChartOnTheSummarySheet(constantMemory: Bool) throws {
    let dir = try TempDir()
    let path = dir.path("r.xlsx")
    var content = try ReconciliationWorkbookTests.content()
    let trend = try #require(RevenueTrend.build(revenue: content.revenue, date: content.date, fx: nil))
    content.revenueTrend = trend
    content.status = RunStatus.decide(RunStatus.Inputs(findings: content.findings))
    var options = ReconciliationWorkbook.Options()
    options.constantMemoryAbove = constantMemory ? 0 : 1000
    try ReconciliationWorkbook.write(content, to: path, options: options)
    let package = XLSXPackage(path)
    #expect(try package.sheetNames() == ReconciliationWorkbookTests.sheets + ["Revenue trend"])
    let chart = try package.entry("xl/charts/chart1.xml")
    #expect(chart.contains("<c:lineChart>"))
    // One series per store, its values the trend sheet's column, its categories the days.
    let values = XLSXPackage.matches("<c:val><c:numRef><c:f>([^<]*)</c:f>", in: chart).compactMap(\.last)
    let last = trend.days.count + 1
    #expect(
      values == trend.stores.indices.map { "'Revenue trend'!$\(["B", "C"][$0])$2:$\(["B", "C"][$0])$\(last)" }
    )
    #expect(chart.contains("<c:f>'Revenue trend'!$A$2:$A$\(last)</c:f>"))
    // The chart is drawn on the Summary sheet (sheet 1), beside the status.
    #expect(try package.entry("xl/worksheets/_rels/sheet1.xml.rels").contains("../drawings/drawing1.xml"))
    let rows = try XLSXPackage.rows(try package.sheet("Summary"), strings: try package.sharedStrings())
    #expect(rows.first?.first == "ATTENTION")
    let sheet = try package.sheet("Revenue trend")
    #expect(sheet.rowCount == last)
  }
}
