import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// tieout.csv, tieout_orders.csv and the columns revenue.csv and counts.csv gained: exact bytes.
struct TieOutCSVTests {
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// The CSV without its last four columns (the case key, state, first seen and age, which hold no
  /// comma), line by line.
  static func withoutCaseColumns(_ csv: String) -> String {
    csv.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      var text = Substring(line)
      for _ in 0..<4 {
        guard let comma = text.lastIndex(of: ",") else { break }
        text = text[..<comma]
      }
      return String(text)
    }.joined(separator: "\n")
  }

  @Test func aDifferenceCarriesItsCaseKeyAndAMatchNone() {
    let cells = Self.text(ReportTables.tieOutCSV(TieOutFixture.cells)).split(separator: "\n")
    #expect(cells[0].hasSuffix(",case_key,state,first_seen,age_days"))
    #expect(cells[1].hasSuffix(",,,,"))
    let key = CaseCandidate(TieOutFixture.cells[1]).key
    #expect(cells[2].hasSuffix(",\(key),,,"), "\(cells[2])")
    let orders = Self.text(ReportTables.tieOutOrdersCSV(TieOutFixture.orders)).split(separator: "\n")
    #expect(orders[2].hasSuffix(",\(CaseCandidate(TieOutFixture.orders[1]).key),,,"), "\(orders[2])")
  }

  /// A step's two cells as a CSV row writes them (a sentence with a comma quoted).
  static func stepCells(_ step: NextStep?) -> String {
    guard let step else { return "," }
    let text = step.whatToDo.contains(",") ? "\"\(step.whatToDo)\"" : step.whatToDo
    return "\(text),docs/\(step.anchor)"
  }

  @Test func tieOutCSVHasTheIssueColumnsAndPeriods() {
    let csv = Self.withoutCaseColumns(Self.text(ReportTables.tieOutCSV(TieOutFixture.cells)))
    let more = Self.stepCells(NextStep.of(TieOutCell.Status.reportMore))
    let price = Self.stepCells(NextStep.of(TieOutCell.Status.priceDiffers))
    let less = Self.stepCells(NextStep.of(TieOutCell.Status.reportLess))
    #expect(more.hasSuffix(",docs/tieout.md#report_more") && less.hasSuffix(",docs/tieout.md#report_less"))
    #expect(
      csv == """
        store,source,day,product_id,country,currency,report_units,ledger_units,units_diff,\
        report_gross_minor,ledger_gross_minor,gross_diff_minor,report_proceeds_minor,ledger_proceeds_minor,\
        status,detail,proceeds_currency,report_free_units,ledger_free_units,what_to_do,docs
        app_store,apple_sales,2026-09-03,pro.monthly,DE,EUR,1,1,0,999,999,0,699,699,match,,EUR,2,2,,
        app_store,apple_sales,2026-09-03,pro.monthly,US,USD,3,2,1,2997,1998,999,2097,1398,report_more,\
        1 unit the feed does not show,USD,0,0,\(more)
        app_store,apple_sales,2026-09-04,pro.yearly,JP,JPY,1,1,0,4900,4500,400,2300,3150,price_differs,\
        "same units, 400 JPY more",USD,0,0,\(price)
        play,play_earnings,2026-09,pro.monthly,US,USD,2,3,-1,1998,2997,-999,1698,2547,report_less,\
        "feed has 1 more unit, a duplicate?",USD,0,0,\(less)

        """)
    // The first 16 columns are exactly the issue's, in its order; the next step comes last.
    #expect(
      Array(ReportTables.tieOutHeader.prefix(16)) == [
        "store", "source", "day", "product_id", "country", "currency", "report_units", "ledger_units",
        "units_diff", "report_gross_minor", "ledger_gross_minor", "gross_diff_minor", "report_proceeds_minor",
        "ledger_proceeds_minor", "status", "detail",
      ])
    #expect(
      ReportTables.tieOutHeader.suffix(6) == [
        "what_to_do", "docs", "case_key", "state", "first_seen", "age_days",
      ])
    #expect(Self.text(ReportTables.tieOutCSV([])) == ReportTables.tieOutHeader.joined(separator: ",") + "\n")
  }

  @Test func tieOutLinksStartWithTheConfiguredBase() {
    let csv = Self.text(ReportTables.tieOutCSV(TieOutFixture.cells, docsBase: "https://wiki.example.com/d/"))
    #expect(
      csv.contains(
        ",https://wiki.example.com/d/tieout.md#report_more,\(CaseCandidate(TieOutFixture.cells[1]).key),,,\n")
    )
    #expect(!csv.contains("docs/tieout.md"))
  }

  @Test func tieOutOrdersCSV() {
    let missing = Self.stepCells(NextStep.of(TieOutOrder.Status.missingInEarnings))
    let amount = Self.stepCells(NextStep.of(TieOutOrder.Status.amountDiffers))
    let fee = Self.stepCells(NextStep.of(TieOutOrder.Status.feeDiffers))
    #expect(
      Self.withoutCaseColumns(Self.text(ReportTables.tieOutOrdersCSV(TieOutFixture.orders))) == """
        store,order_id,month,product_id,currency,sales_item_minor,earnings_charge_minor,estimated_fee_minor,\
        actual_fee_minor,status,detail,what_to_do,docs
        play,GPA.1,2026-09,pro.monthly,USD,999,999,150,150,match,,,
        play,GPA.2..0,2026-09,pro.monthly,USD,999,0,150,0,missing_in_earnings,no earnings row,\(missing)
        play,GPA.3,2026-09,pro.monthly,USD,999,899,150,135,amount_differs,Charge 8.99 ≠ 9.99,\(amount)
        play,GPA.4,2026-09,pro.monthly,USD,999,999,150,300,fee_differs,,\(fee)

        """)
  }

  @Test func monthText() {
    #expect(ReportTables.monthText(CivilDate(year: 2026, month: 9, day: 1)) == "2026-09")
    #expect(ReportTables.monthText(CivilDate(year: 2026, month: 12, day: 31)) == "2026-12")
  }

  @Test func revenueCSVAppendsProceeds() {
    var settled = RevenueRow(
      day: CivilDate(year: 2026, month: 9, day: 3), store: .play, productId: "pro.monthly",
      currency: TieOutFixture.usd)
    settled.charges = 2
    settled.grossMinor = 1998
    settled.taxMinor = 160
    settled.refundsMinor = 999
    settled.refundCount = 1
    settled.proceedsMinor = 849
    settled.proceedsSource = .settled
    var estimated = RevenueRow(
      day: CivilDate(year: 2026, month: 9, day: 3), store: .appStore, productId: "pro.yearly",
      currency: TieOutFixture.jpy)
    estimated.charges = 1
    estimated.grossMinor = 4900
    estimated.proceedsMinor = 4165
    var disputed = RevenueRow(
      day: CivilDate(year: 2026, month: 9, day: 3), store: .stripe, productId: "pro.monthly",
      currency: TieOutFixture.usd)
    disputed.disputedMinor = 999
    disputed.disputeFeesMinor = 1500
    #expect(
      Self.text(ReportTables.revenueCSV([settled, estimated, disputed])) == """
        day,store,product_id,currency,charges,gross_minor,tax_minor,refunds_minor,refund_count,\
        proceeds_minor,proceeds_source,disputed_minor,dispute_fees_minor
        2026-09-03,play,pro.monthly,USD,2,1998,160,999,1,849,settled,0,0
        2026-09-03,app_store,pro.yearly,JPY,1,4900,0,0,0,4165,estimated,0,0
        2026-09-03,stripe,pro.monthly,USD,0,0,0,0,0,0,estimated,999,1500

        """)
  }

  @Test func countsCSVAppendsReportPaidUnitsAndDetail() {
    var reported = CountsRow(store: .appStore, productId: "pro.monthly")
    reported.chainsPaidThrough = 10
    reported.entitlementsActive = 11
    reported.reportPaidUnits = 9
    reported.detail = "report: 9 paid units, 1 fewer than the chains paid through"
    var unreported = CountsRow(store: .play, productId: "pro.monthly")
    unreported.chainsPaidThrough = 4
    unreported.entitlementsActive = 4
    #expect(
      Self.text(ReportTables.countsCSV([reported, unreported])) == """
        store,product_id,chains_paid_through,entitlements_active,difference,report_paid_units,detail
        app_store,pro.monthly,10,11,1,9,"report: 9 paid units, 1 fewer than the chains paid through"
        play,pro.monthly,4,4,0,,

        """)
  }
}
