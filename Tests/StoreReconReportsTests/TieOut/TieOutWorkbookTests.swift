import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// reconciliation.xlsx's Tie-out and Tie-out orders sheets, the Summary's tie-out and payouts, and the
/// columns Revenue and Counts gained.
@Suite(.serialized) struct TieOutWorkbookTests {
  static func write(_ content: ReconciliationWorkbook.Content, constantMemory: Bool = false) throws
    -> (XLSXPackage, TempDir)
  {
    let dir = try TempDir()
    var options = ReconciliationWorkbook.Options()
    options.constantMemoryAbove = constantMemory ? 0 : 1000
    try ReconciliationWorkbook.write(content, to: dir.path("t.xlsx"), options: options)
    return (XLSXPackage(dir.path("t.xlsx")), dir)
  }

  static func content() throws -> ReconciliationWorkbook.Content {
    var content = try ReconciliationWorkbookTests.content()
    content.tieOut = TieOutFixture.tieOut
    content.payouts = TieOutSummaryTests.payouts
    content.revenue[0].proceedsMinor = 849
    content.revenue[0].proceedsSource = .settled
    content.counts[0].reportPaidUnits = 2
    content.counts[0].detail = "report: 2 paid units"
    return content
  }

  @Test(arguments: [false, true])
  func tieOutSheetsDifferencesFirst(constantMemory: Bool) throws {
    let (package, dir) = try Self.write(try Self.content(), constantMemory: constantMemory)
    defer { _ = dir }
    #expect(
      Array(try package.sheetNames().prefix(4)) == [
        "Summary", "Tie-out", "Tie-out orders", "Orphaned charges",
      ])
    let styles = try package.styles()
    let strings = try package.sharedStrings()
    func money(_ sheet: XLSXPackage.Sheet, _ ref: String, _ value: String, _ format: String) {
      #expect(sheet.cells[ref]?.type == nil && sheet.cells[ref]?.value == value, "\(ref)")
      #expect(styles.formatCode(style: sheet.cells[ref]?.style ?? -1) == format, "\(ref)")
    }
    let sheet = try package.sheet("Tie-out")
    #expect(sheet.frozenRows == 1 && sheet.autofilter == "A1:U5")
    #expect(styles.isBold(style: sheet.cells["A1"]?.style ?? -1))
    let rows = try XLSXPackage.rows(sheet, strings: strings)
    #expect(rows[0] == ReconciliationWorkbook.tieOutHeader)
    #expect(rows.dropFirst().map { $0[15] } == ["report_more", "price_differs", "report_less", "match"])
    // Apple days are dates (2026-09-03 = 46268); a Play earnings month is its `YYYY-MM`.
    #expect(sheet.cells["C2"]?.value == "46268")
    #expect(styles.formatCode(style: sheet.cells["C2"]?.style ?? -1) == "yyyy-mm-dd")
    #expect(XLSXPackage.text(sheet.cells["C4"], strings: strings) == "2026-09")
    money(sheet, "J2", "29.97", "#,##0.00")
    money(sheet, "L2", "9.99", "#,##0.00")
    money(sheet, "J3", "4900", "#,##0")
    #expect(XLSXPackage.text(sheet.cells["M3"], strings: strings) == "USD")
    money(sheet, "N3", "23", "#,##0.00")  // the report's proceeds, in the proceeds currency
    money(sheet, "O3", "3150", "#,##0")  // the feed's estimate, in the buyer currency
    money(sheet, "L4", "-9.99", "#,##0.00")
    #expect(rows[4][16] == "" && sheet.cells["R5"]?.value == "2")
    #expect(XLSXPackage.text(sheet.cells["Q3"], strings: strings) == "same units, 400 JPY more")
    // What to do and the docs link after the free units; none for the match row.
    #expect(rows[1][19] == NextStep.of(TieOutCell.Status.reportMore)?.whatToDo)
    #expect(rows[1][20] == "docs/tieout.md#report_more")
    #expect(rows[4].count <= 19 || (rows[4][19] == "" && rows[4][20] == ""))

    let orders = try package.sheet("Tie-out orders")
    // Only the orders with a difference, then a line counting the matching ones (all are in the CSV).
    #expect(orders.frozenRows == 1 && orders.autofilter == "A1:M4")
    let orderRows = try XLSXPackage.rows(orders, strings: strings)
    #expect(orderRows.dropFirst().map { $0.count > 1 ? $0[1] : "" } == ["GPA.2..0", "GPA.3", "GPA.4", ""])
    #expect(
      orderRows.count == 5
        && orderRows[4].first == "1 order match (not listed here): tieout_orders.csv lists every order")
    #expect(orderRows[1][2] == "2026-09")
    money(orders, "G3", "8.99", "#,##0.00")
    money(orders, "I4", "3", "#,##0.00")
    #expect(orderRows[1][11] == NextStep.of(TieOutOrder.Status.missingInEarnings)?.whatToDo)
    #expect(orderRows[1][12] == "docs/tieout.md#missing_in_earnings")
  }

  @Test func summaryRevenueAndCountsColumns() throws {
    let (package, dir) = try Self.write(try Self.content())
    defer { _ = dir }
    let strings = try package.sharedStrings()
    let summary = try XLSXPackage.rows(try package.sheet("Summary"), strings: strings)
    #expect(summary.contains(["app_store", "apple_sales", "report_more", "USD", "9.99", "29.97", "1"]))
    #expect(summary.contains(["app_store", "apple_sales", "report_less", "", "", "", "0"]))
    #expect(summary.contains(["play", "play_earnings", "report_less", "USD", "9.99", "19.98", "1"]))
    #expect(summary.contains(["play", "missing_in_earnings", "USD", "9.99", "1"]))
    #expect(summary.contains(["play", "missing_in_sales", "", "", "0"]))
    #expect(summary.contains(["apple_financial", "USD", "20.97", "1"]))
    #expect(summary.contains(["play_earnings", "EUR", "6.99", "2"]))
    let revenue = try XLSXPackage.rows(try package.sheet("Revenue"), strings: strings)
    #expect(
      Array(revenue[0].suffix(4)) == ["proceeds", "proceeds_source", "disputed", "dispute_fees"])
    // Per month: JPY, then USD, whose settled day and estimated day make an estimated month (the
    // least settled of its days); no disputes in the stores' rows.
    #expect(Array(revenue[1].suffix(4)) == ["0", "estimated", "0", "0"])
    #expect(Array(revenue[2].suffix(4)) == ["8.49", "estimated", "0", "0"])
    let counts = try XLSXPackage.rows(try package.sheet("Counts"), strings: strings)
    #expect(
      counts == [
        [
          "store", "product_id", "chains_paid_through", "entitlements_active", "difference",
          "report_paid_units", "detail",
        ],
        ["play", "pro:monthly", "3", "4", "1", "2", "report: 2 paid units"],
      ])
  }

  @Test func withoutAStoreReportTheSheetsSaySo() throws {
    let (package, dir) = try Self.write(try ReconciliationWorkbookTests.content())
    defer { _ = dir }
    let strings = try package.sharedStrings()
    let sheet = try package.sheet("Tie-out")
    #expect(sheet.rowCount == 2 && sheet.frozenRows == 1)
    #expect(XLSXPackage.text(sheet.cells["A2"], strings: strings) == ReconciliationWorkbook.noTieOutNote)
    let orders = try package.sheet("Tie-out orders")
    #expect(XLSXPackage.text(orders.cells["A2"], strings: strings) == ReconciliationWorkbook.noOrdersNote)
    let summary = try XLSXPackage.rows(try package.sheet("Summary"), strings: strings)
    #expect(summary.contains([ReconciliationWorkbook.noTieOutNote]))
    #expect(summary.contains(["no settlement report (play.earnings, appStore.financialReports) was read"]))
    let counts = try XLSXPackage.rows(try package.sheet("Counts"), strings: strings)
    #expect(counts.last == ["play", "pro:monthly", "3", "4", "1"])
  }
}
