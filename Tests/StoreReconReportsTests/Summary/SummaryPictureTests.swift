import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The pictures of summary.html: inline SVG, self-contained, drawing the figures beside them.
struct SummaryPictureTests {
  static let usd = Currency.named("USD")!
  static let jpy = Currency.named("JPY")!
  static let date = ReportSummaryTests.date

  static func revenue(_ day: CivilDate, _ store: Store, _ currency: Currency, _ gross: Int64) -> RevenueRow {
    var r = RevenueRow(day: day, store: store, productId: "p", currency: currency)
    r.grossMinor = gross
    r.charges = 1
    return r
  }

  @Test func revenueTrendUsesTheLargestCurrencyWithoutFX() throws {
    let rows = [
      Self.revenue(Self.date, .appStore, Self.usd, 1_000),
      Self.revenue(Self.date.previous, .play, Self.usd, 499),
      Self.revenue(Self.date, .play, Self.jpy, 300),  // 300 JPY: fewer minor units than the USD rows
      // Before the 30 days:
      Self.revenue(CivilDate(year: 2026, month: 10, day: 1), .appStore, Self.usd, 5_000),
    ]
    let trend = try #require(RevenueTrend.build(revenue: rows, date: Self.date, fx: nil))
    #expect(trend.currency == Self.usd && trend.days.count == 30 && trend.days.last == Self.date)
    #expect(trend.stores == [.appStore, .play])
    #expect(trend.grossMinor[0].last == 1_000 && trend.grossMinor[1][28] == 499)
    #expect(trend.grossMinor[0].reduce(0, +) == 1_000, "the row before the 30 days is left out")
    #expect(trend.note.hasPrefix("USD only, the largest of 2 currencies"))
    let fx = SummaryFX(reportingCurrency: Self.usd, label: "test rates") { money in
      money.currency == Self.jpy ? money.minor / 2 : money.minor
    }
    let converted = try #require(RevenueTrend.build(revenue: rows, date: Self.date, fx: fx))
    #expect(converted.grossMinor[1].last == 150 && converted.note == "converted into USD (test rates)")
    #expect(RevenueTrend.build(revenue: [], date: Self.date, fx: nil) == nil)
  }

  @Test func theHTMLDrawsTheRevenueTrendAndTheForestPlot() {
    var facts = ReportSummaryTests.facts(
      [],
      revenue: [
        Self.revenue(Self.date, .appStore, Self.usd, 1_000), Self.revenue(Self.date, .play, Self.usd, 2_000),
      ])
    var verdict = ExperimentVerdict(experimentId: "paywall", verdict: "high leading")
    verdict.differences = [
      SVGChart.Estimate(label: "high", estimate: 120, low: 20, high: 230),
      SVGChart.Estimate(label: "low <b>", estimate: -40, low: -90, high: 15),
    ]
    facts.experiments = [verdict]
    let summary = ReportSummary.build(facts)
    let html = summary.html
    let svgs = html.components(separatedBy: "<svg ").count - 1
    #expect(svgs == 2 && html.components(separatedBy: "</svg>").count - 1 == 2)
    #expect(html.components(separatedBy: "<polyline ").count - 1 == 2, "one line per store")
    #expect(html.contains("<title>app_store</title>") && html.contains("<title>play</title>"))
    #expect(html.contains("last 30 days (USD, the only currency)"))
    #expect(html.components(separatedBy: "<circle ").count - 1 == 2, "one dot per challenger")
    #expect(html.contains(">120 [20, 230]</text>"))
    #expect(html.contains(">low &lt;b&gt;</text>"), "labels escaped")
    #expect(html.contains("fill=\"#1a7f37\""), "an interval above zero is green")
    for forbidden in ["<img", "href=", "http://", "https://", "<script"] {
      #expect(!html.contains(forbidden), "\(forbidden)")
    }
    // The one style sheet is the narrow-screen cards' (SummaryLayoutTests).
    #expect(html.components(separatedBy: "<style").count == 2)
    #expect(!summary.text.contains("<svg"), "the text summary has the tables, not the pictures")
  }
}
