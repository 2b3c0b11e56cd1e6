import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The findings trend from run history's per-day totals: one point per recorded run, counts per kind,
/// money at stake in one currency, and the summary's sentence and pictures drawn from it.
struct FindingsTrendTests {
  static let usd = Currency.named("USD")!
  static let date = ReportSummaryTests.date

  static func total(_ daysBack: Int64, _ kind: Finding.Kind, _ currency: String?, _ n: Int, _ minor: Int64)
    -> HistoryDayTotal
  {
    HistoryDayTotal(
      date: CivilDate(daysSinceEpoch: date.daysSinceEpoch - daysBack), kind: kind.rawValue,
      currency: currency,
      findings: n, amountMinor: minor)
  }

  static let totals = [
    // Two days back: 3 orphaned charges (1,000 USD minor + 600 JPY), 2 free entitlements without amount.
    total(2, .orphanedCharge, "USD", 2, 1_000), total(2, .orphanedCharge, "JPY", 1, 600),
    total(2, .freeEntitlement, nil, 2, 0),
    // The report date (no run the day before: no point for it): 1 orphaned charge, 4 free entitlements.
    total(0, .freeEntitlement, "USD", 4, 2_500), total(0, .orphanedCharge, "USD", 1, 499),
  ]

  @Test func onePointPerRecordedRunCountsPerKindInKindOrder() throws {
    let trend = try #require(FindingsTrend.build(totals: Self.totals, fx: nil))
    #expect(trend.days.map(\.description) == ["2026-11-27", "2026-11-29"], "a day without a run is no point")
    #expect(trend.kinds == [Finding.Kind.orphanedCharge.rawValue, Finding.Kind.freeEntitlement.rawValue])
    #expect(trend.findings == [[3, 1], [2, 4]])
    #expect(trend.total(0) == 5 && trend.total(1) == 5)
    // No FX: the largest currency only; the JPY finding is left out and counted.
    #expect(trend.currency == Self.usd && trend.atStakeMinor == [1_000, 2_999])
    #expect(trend.unconverted == 1)
    #expect(trend.note == "USD only, the largest of 2 currencies (no FX table to convert the others)")
  }

  @Test func anFXTableConvertsEveryCurrency() throws {
    let fx = SummaryFX(reportingCurrency: Self.usd, label: "test rates") { money in
      money.currency.code == "JPY" ? money.minor / 2 : money.minor
    }
    let trend = try #require(FindingsTrend.build(totals: Self.totals, fx: fx))
    #expect(trend.atStakeMinor == [1_300, 2_999] && trend.unconverted == 0)
    #expect(trend.note == "converted into USD (test rates)")
  }

  @Test func oneRunIsNoTrend() {
    #expect(FindingsTrend.build(totals: Array(Self.totals.prefix(3)), fx: nil) == nil)
    #expect(FindingsTrend.build(totals: [], fx: nil) == nil)
  }

  @Test func theSummarySaysAndDrawsIt() throws {
    var facts = ReportSummaryTests.facts([])
    facts.history = SummaryHistory(
      previousRunDate: CivilDate(daysSinceEpoch: Self.date.daysSinceEpoch - 2), newFindingKeys: [],
      resolvedPerReason: [:], dayTotals: Self.totals)
    let summary = ReportSummary.build(facts)
    #expect(
      summary.unwrappedText.contains(
        "2 recorded runs: findings 5 on 2026-11-27, 5 on 2026-11-29 (±0); money at stake 10.00 USD → 29.99 USD, +19.99 (+199.9 %)"
      ), "\(summary.unwrappedText)")
    #expect(summary.unwrappedText.contains("1 findings not converted are left out"))
    let html = summary.html
    let start = try #require(html.range(of: "Findings per recorded run and kind"))
    let end = try #require(html[start.upperBound...].range(of: "</svg>"))
    let picture = html[start.lowerBound..<end.lowerBound]
    #expect(picture.components(separatedBy: "<polyline ").count - 1 == 2, "one line per kind")
    #expect(
      picture.contains("<title>orphaned_charge</title>")
        && picture.contains("<title>free_entitlement</title>"))
    #expect(html.contains("Money at stake per recorded run, last 30 days (USD only"))
    // Without history totals, neither the sentence nor the pictures.
    facts.history?.dayTotals = []
    let none = ReportSummary.build(facts)
    #expect(!none.html.contains("Findings per recorded run") && !none.text.contains("recorded runs"))
  }

  @Test func theLegendWrapsSoTwelveKindsStayInsideThePicture() {
    let lines = (0..<12).map { SVGChart.Line(name: "kind_\($0)", values: [1, 2]) }
    let svg = SVGChart.lineChart(title: "t", xLabels: ["a", "b"], lines: lines) { "\($0)" }
    let xs = Captured.numbers(#"<rect x="([0-9.]+)""#, in: svg)
    #expect(xs.count == 12 && xs.allSatisfy { $0 + 170 <= 600 }, "\(xs)")
    let height = Captured.numbers(#"viewBox="0 0 600 ([0-9.]+)""#, in: svg)
    let ys = Captured.numbers(#"<rect x="[0-9.]+" y="([0-9.]+)""#, in: svg)
    #expect(height.count == 1 && ys.allSatisfy { $0 + 10 <= height[0] }, "\(ys) in \(height)")
  }
}

/// Numbers captured by a pattern's first group.
enum Captured {
  static func numbers(_ pattern: String, in text: String) -> [Double] {
    guard let regex = try? Regex(pattern) else { return [] }
    return text.matches(of: regex).compactMap { match in
      match.output.count > 1 ? match.output[1].substring.flatMap { Double($0) } : nil
    }
  }
}

/// A picture's title longer than the picture is squeezed to its width, a short one is left alone.
struct SVGTitleTests {
  @Test func aLongTitleFitsThePicture() {
    let long = String(repeating: "Gross revenue per day ", count: 5)
    let svg = SVGChart.lineChart(title: long, xLabels: ["a", "b"], lines: []) { "\($0)" }
    #expect(
      svg.contains("font-weight=\"bold\" textLength=\"592\" lengthAdjust=\"spacingAndGlyphs\">\(long)</text>")
    )
    let short = SVGChart.lineChart(title: "Short", xLabels: ["a", "b"], lines: []) { "\($0)" }
    #expect(!short.contains("textLength"))
  }
}
