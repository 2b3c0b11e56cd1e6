import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// The summary's money in the reporting currency: at stake, and per store the report date beside the
/// day before with the change; an amount without a rate is left out and counted, never taken as zero.
struct ReportingTotalsTests {
  static let usd = Currency.named("USD")!
  static let jpy = Currency.named("JPY")!
  static let kwd = Currency.named("KWD")!
  static let date = ReportSummaryTests.date

  /// 1 JPY = 0.5 US cent (half the minor units); no rate for KWD.
  static let fx = SummaryFX(reportingCurrency: usd, label: "test rates") { money in
    if money.currency == jpy { return money.minor / 2 }
    return money.currency == usd ? money.minor : nil
  }

  static func revenue(_ day: CivilDate, _ store: Store, _ currency: Currency, gross: Int64, proceeds: Int64)
    -> RevenueRow
  {
    var r = SummaryPictureTests.revenue(day, store, currency, gross)
    r.proceedsMinor = proceeds
    return r
  }

  @Test func convertsPerStoreWithTheDayBeforeAndLeavesGapsOut() throws {
    let date = Self.date
    let monthStart = CivilDate(year: date.year, month: date.month, day: 1)
    let rows = [
      Self.revenue(date, .appStore, Self.usd, gross: 1_000, proceeds: 700),
      Self.revenue(date, .appStore, Self.jpy, gross: 600, proceeds: 400),  // 300 and 200 US cents
      Self.revenue(date.previous, .appStore, Self.usd, gross: 800, proceeds: 560),
      Self.revenue(date, .play, Self.usd, gross: 500, proceeds: 425),
      Self.revenue(date, .play, Self.kwd, gross: 9_999, proceeds: 9_000),  // no rate: a gap
      Self.revenue(monthStart, .play, Self.usd, gross: 2_000, proceeds: 1_700),
      Self.revenue(
        CivilDate(daysSinceEpoch: monthStart.daysSinceEpoch - 40), .play, Self.usd, gross: 7, proceeds: 7),
    ]
    var facts = ReportSummaryTests.facts(
      [
        ReportSummaryTests.finding(.unclaimed, "u1", Self.usd, 499),
        ReportSummaryTests.finding(.unclaimed, "u2", Self.jpy, 1_000),
        ReportSummaryTests.finding(.unclaimed, "u3", Self.kwd, 1_500),
        ReportSummaryTests.finding(.noStoreRecord, "u4", nil, nil),
      ], revenue: rows)
    #expect(ReportingTotals.build(facts) == nil, "no FX table, no reporting-currency totals")
    facts.fx = Self.fx
    let totals = try #require(ReportingTotals.build(facts))
    #expect(
      totals.atStakeMinor == 499 + 500 && totals.atStakeFindings == 2 && totals.unconvertedFindings == 2)
    #expect(totals.unconvertedRows == 1)
    #expect(totals.lines.map(\.store) == [.appStore, .play, nil])
    let apple = totals.lines[0]
    #expect(apple.grossMinor == 1_300 && apple.previousGrossMinor == 800 && apple.proceedsMinor == 900)
    #expect(apple.previousProceedsMinor == 560 && apple.monthGrossMinor == 2_100)
    let play = totals.lines[1]
    #expect(play.grossMinor == 500 && play.previousGrossMinor == 0 && play.monthGrossMinor == 2_500)
    let all = totals.lines[2]
    #expect(all.grossMinor == 1_800 && all.previousGrossMinor == 800 && all.monthGrossMinor == 4_600)
    let text = ReportSummary.build(facts).text
    #expect(text.contains("Money at stake in USD (test rates): 9.99 USD over 2 findings"))
    #expect(text.contains("2 without an amount or rate are not in it"))
    #expect(text.contains("In USD (test rates)") && text.contains("+10.00 (+125.0 %)"))
    #expect(text.contains("1 revenue rows of these days have no rate into USD"))
  }

  @Test func theChangeIsExactAndRoundsHalfAwayFromZero() {
    #expect(ReportingTotals.change(1_300, 800, Self.usd) == "+5.00 (+62.5 %)")
    #expect(ReportingTotals.change(800, 1_300, Self.usd) == "-5.00 (-38.5 %)")  // 38.46… %
    #expect(ReportingTotals.change(1_001, 1_000, Self.usd) == "+0.01 (+0.1 %)")
    #expect(ReportingTotals.change(2_001, 2_000, Self.usd) == "+0.01 (+0.1 %)", "0.05 % rounds up")
    #expect(ReportingTotals.change(1_999, 2_000, Self.usd) == "-0.01 (-0.1 %)", "-0.05 % rounds down")
    #expect(ReportingTotals.change(500, 0, Self.usd) == "+5.00", "no percentage from nothing")
    #expect(ReportingTotals.change(700, 700, Self.jpy) == "0 (0.0 %)")
    #expect(ReportingTotals.change(.max, -1, Self.usd) == "—")
  }
}

/// The same totals on the workbook's Summary sheet, as numbers in the reporting currency.
struct ReportingTotalsWorkbookTests {
  @Test func theSummarySheetShowsTheTotalsInTheReportingCurrency() throws {
    let date = ReportingTotalsTests.date
    let usd = ReportingTotalsTests.usd
    let rows = [
      ReportingTotalsTests.revenue(date, .appStore, usd, gross: 1_000, proceeds: 700),
      ReportingTotalsTests.revenue(date, .appStore, ReportingTotalsTests.jpy, gross: 600, proceeds: 400),
      ReportingTotalsTests.revenue(date.previous, .appStore, usd, gross: 800, proceeds: 560),
      ReportingTotalsTests.revenue(date, .play, ReportingTotalsTests.kwd, gross: 9_999, proceeds: 9_000),
    ]
    var facts = ReportSummaryTests.facts(
      [ReportSummaryTests.finding(.unclaimed, "u1", usd, 499)], revenue: rows)
    facts.fx = ReportingTotalsTests.fx
    let totals = try #require(ReportingTotals.build(facts))
    let dir = try TempDir()
    var content = try ReconciliationWorkbookTests.content()
    content.reportingTotals = totals
    try ReconciliationWorkbook.write(content, to: dir.path("r.xlsx"))
    let package = XLSXPackage(dir.path("r.xlsx"))
    let sheet = try XLSXPackage.rows(try package.sheet("Summary"), strings: try package.sharedStrings())
    let title = try #require(sheet.firstIndex { $0.first == "In USD (test rates)" }, "\(sheet)")
    #expect(sheet[title + 1].prefix(2) == ["money at stake", "4.99"])
    #expect(
      sheet[title + 2] == [
        "store", "gross 2026-11-29", "gross 2026-11-28", "change", "proceeds 2026-11-29",
        "proceeds 2026-11-28",
        "change", "gross month to date",
      ])
    // App Store: 10.00 + 600 JPY (3.00) on the day, 8.00 the day before; the KWD row has no rate.
    #expect(sheet[title + 3] == ["app_store", "13", "8", "5", "9", "5.6", "3.4", "21"])
    let all = try #require(sheet.first { $0.first == "all stores" })
    #expect(all[1] == "13")
    #expect(
      sheet.contains { $0.first == "1 revenue rows of these days have no rate into USD and are left out" })
  }
}
