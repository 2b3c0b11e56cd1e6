import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The summary built from plain values: status line, groups, rankings, revenue, optional sections, HTML.
struct ReportSummaryTests {
  static let date = CivilDate(year: 2026, month: 11, day: 29)
  static let usd = Currency.named("USD")!
  static let eur = Currency.named("EUR")!
  static let jpy = Currency.named("JPY")!
  static let kwd = Currency.named("KWD")!

  static func finding(
    _ reason: Finding.Reason, _ user: String, _ currency: Currency?, _ amount: Int64?,
    store: Store = .appStore
  ) -> Finding {
    Finding(
      reason: reason, store: store, chainKey: "chain-\(user)", userId: user,
      productId: "com.acme.pro.monthly",
      currency: currency, amountMinor: amount, detail: "detail of \(user)")
  }

  static func facts(_ findings: [Finding], revenue: [RevenueRow] = []) -> SummaryFacts {
    var input = InputReport(
      role: "app_store.transactions", path: "exports/apple/t.jsonl", rejectsFile: "rejects/x.csv")
    input.counts = InputCounts()
    input.firstAt = Instant(ms: 1_700_000_000_000)
    input.lastAt = Instant(ms: 1_764_400_000_000)
    return SummaryFacts(
      version: "9.9.9", date: date, asOf: date.next.startUTC, timeZone: "UTC", inputs: [input],
      findings: findings,
      revenue: revenue)
  }

  @Test func okHeadlineAndSubject() {
    // Nothing at all: OK, and the subject says so with the date.
    let summary = ReportSummary.build(Self.facts([]))
    #expect(
      summary.headline == "OK — 0 new, 0 open — 2026-11-29; no thresholds configured; inputs cover 2026-11-29"
    )
    #expect(summary.subject(prefix: "[storerecon]") == "[storerecon] OK — 0 new, 0 open — 2026-11-29")
    #expect(summary.subject(prefix: "") == "OK — 0 new, 0 open — 2026-11-29")
    #expect(
      summary.unwrappedText.hasPrefix(
        summary.headline
          + "\nstorerecon 9.9.9 — reconciliation for 2026-11-29 (UTC), as of 2026-11-30T00:00:00.000Z\n"))
    #expect(summary.text.contains("\nStatus\n------\nOK — nothing new, nothing open\n"))
  }

  @Test func aFindingWithoutMoneyIsANewCaseWithoutAmount() {
    let summary = ReportSummary.build(Self.facts([Self.finding(.noStoreRecord, "u1", nil, nil)]))
    #expect(summary.subject(prefix: "") == "ATTENTION — 1 new, 0 open — 2026-11-29")
  }

  @Test func aNewFindingWithMoneyAtStakeIsAttention() {
    let summary = ReportSummary.build(Self.facts([Self.finding(.unclaimed, "u1", Self.usd, 1_234_500)]))
    #expect(summary.status == "ATTENTION")
    #expect(
      summary.subject(prefix: "[storerecon]")
        == "[storerecon] ATTENTION — 1 new (12,345.00 USD), 0 open — 2026-11-29")
    #expect(summary.text.contains("\nATTENTION new (no run history: all new): 1 finding\n"))
    #expect(summary.html.contains("border-left:4px solid #bc4c00"))
  }

  @Test func alertAndIncompleteHeadline() {
    var facts = Self.facts((1...3).map { Self.finding(.refunded, "u\($0)", Self.usd, 100) })
    facts.alerts = [AlertRule(kind: .freeEntitlement, maxCount: 2)]
    facts.incomplete = ["play.sales: no sales rows for 2026-11-29 (last row 2026-11-28T10:00:00.000Z)"]
    let summary = ReportSummary.build(facts)
    #expect(summary.status == "ALERT, INCOMPLETE")
    #expect(
      summary.headline
        == "ALERT, INCOMPLETE — 3 new (3.00 USD), 0 open — 2026-11-29; free_entitlement: 3 findings > maxCount 2; play.sales: no sales rows for 2026-11-29 (last row 2026-11-28T10:00:00.000Z); new (no run history: all new): 3 findings"
    )
    #expect(
      summary.subject(prefix: "[r]")
        == "[r] ALERT, INCOMPLETE — 3 new (3.00 USD), 0 open — 2026-11-29"
    )
    #expect(summary.text.contains("\nALERT free_entitlement: 3 findings > maxCount 2\n"))
    #expect(summary.text.contains("\nINCOMPLETE play.sales: no sales rows"))
    #expect(summary.html.contains("border-left:4px solid #d1242f"))
  }

  @Test func groupsSumMoneyPerCurrencyWithItsOwnDigits() {
    let findings = [
      Self.finding(.unclaimed, "a", Self.usd, 499), Self.finding(.unclaimed, "b", Self.usd, 1001),
      Self.finding(.unclaimed, "c", Self.jpy, 700), Self.finding(.unclaimed, "d", Self.kwd, 1500),
      Self.finding(.noStoreRecord, "e", nil, nil), Self.finding(.noStoreRecord, "f", nil, nil),
    ]
    let summary = ReportSummary.build(Self.facts(findings))
    #expect(summary.groups.map(\.reason) == [.unclaimed, .noStoreRecord])
    #expect(summary.groups[0].atStake.map(\.description) == ["700 JPY", "1.500 KWD", "15.00 USD"])
    #expect(summary.groups[1].withoutAmount == 2)
    #expect(summary.text.contains("700 JPY, 1.500 KWD, 15.00 USD"))
    #expect(summary.text.contains("2 without amount"))
    #expect(summary.text.contains("Run history: not configured"))
    #expect(summary.text.contains("Price tests: not configured."))
    #expect(summary.unranked == 2)
  }

  @Test func withoutHistoryTheTenLargestPerCurrency() {
    var findings = (1...12).map { Self.finding(.refunded, "u\($0)", Self.usd, Int64($0) * 100) }
    findings.append(Self.finding(.lockedOut, "e1", Self.eur, 50))
    findings.append(Self.finding(.lockedOut, "e0", Self.eur, 50))  // tie: report order (user id) decides
    let summary = ReportSummary.build(Self.facts(findings))
    #expect(!summary.rankedNewOnly)
    #expect(summary.rankings.map(\.title) == ["EUR", "USD"])
    #expect(summary.rankings[0].findings.map(\.userId) == ["e0", "e1"])
    #expect(summary.rankings[1].findings.count == ReportSummary.rankingSize)
    #expect(summary.rankings[1].findings.map(\.userId) == (3...12).reversed().map { "u\($0)" })
    let text = summary.text
    #expect(text.contains("10 largest findings per currency"))
    #expect(text.contains("No run history: these are the largest of all findings, not only new ones."))
    #expect(text.contains("within each currency"))
  }

  @Test func withFXOneRankingInTheReportingCurrency() {
    var facts = Self.facts([
      Self.finding(.refunded, "usd", Self.usd, 1000), Self.finding(.refunded, "eur", Self.eur, 1000),
      Self.finding(.refunded, "jpy", Self.jpy, 100),
    ])
    // EUR = 1.10 USD, USD = 1; no JPY rate.
    facts.fx = SummaryFX(reportingCurrency: Self.usd, label: "test rates 2026-11-27") { money in
      switch money.currency.code {
      case "USD": return money.minor
      case "EUR": return money.minor * 110 / 100
      default: return nil
      }
    }
    let summary = ReportSummary.build(facts)
    #expect(summary.rankings.count == 1)
    #expect(summary.rankings[0].findings.map(\.userId) == ["eur", "usd"])
    #expect(summary.rankings[0].converted?.map(\.description) == ["11.00 USD", "10.00 USD"])
    #expect(summary.unranked == 1)
    #expect(summary.text.contains("converted into USD (test rates 2026-11-27)"))
  }

  @Test func historyCountsNewStillOpenResolvedAndRanksNewOnly() {
    let old = Self.finding(.refunded, "old", Self.usd, 9999)
    let new = Self.finding(.refunded, "new", Self.usd, 100)
    var facts = Self.facts([old, new])
    facts.history = SummaryHistory(
      previousRunDate: Self.date.previous, newFindingKeys: [new.key],
      resolvedPerReason: [.refunded: 4, .sandbox: 2])
    let summary = ReportSummary.build(facts)
    let refunded = summary.groups.first { $0.reason == .refunded }
    #expect(refunded?.new == 1)
    #expect(refunded?.stillOpen == 1)
    #expect(refunded?.resolved == 4)
    // A reason with only resolved findings still gets its row.
    let sandbox = summary.groups.first { $0.reason == .sandbox }
    #expect(sandbox?.count == 0)
    #expect(sandbox?.resolved == 2)
    #expect(summary.rankedNewOnly)
    #expect(summary.rankings.first?.findings.map(\.userId) == ["new"])
    #expect(summary.text.contains("10 largest new findings"))
    #expect(summary.text.contains("Run history: compared with the run for 2026-11-28."))
    #expect(summary.text.contains("still open"))
  }

  @Test func historyFromSinceDates() {
    var a = Self.finding(.refunded, "a", Self.usd, 1)
    a.since = "2026-11-01"
    var b = Self.finding(.refunded, "b", Self.usd, 1)
    b.since = "2026-11-29"
    let history = SummaryHistory.fromSince(
      findings: [a, b], date: Self.date, previousRunDate: nil, resolvedPerReason: [:])
    #expect(history.newFindingKeys == [b.key])
  }

  @Test func revenueOnTheDayAndMonthToDate() {
    func row(_ day: CivilDate, _ store: Store, _ currency: Currency, gross: Int64, refunds: Int64 = 0)
      -> RevenueRow
    {
      var r = RevenueRow(day: day, store: store, productId: "p", currency: currency)
      r.charges = 1
      r.grossMinor = gross
      r.refundsMinor = refunds
      return r
    }
    let revenue = [
      row(CivilDate(year: 2026, month: 10, day: 31), .appStore, Self.usd, gross: 100_000),  // last month
      row(CivilDate(year: 2026, month: 11, day: 1), .appStore, Self.usd, gross: 499),
      row(Self.date, .appStore, Self.usd, gross: 999, refunds: 499),
      row(Self.date, .play, Self.jpy, gross: 700),
      row(Self.date.next, .play, Self.jpy, gross: 5000),  // after the report date
    ]
    let summary = ReportSummary.build(Self.facts([], revenue: revenue))
    #expect(summary.revenue.count == 2)
    let apple = summary.revenue[0]
    #expect(apple.store == .appStore && apple.dayGrossMinor == 999 && apple.dayRefundsMinor == 499)
    #expect(apple.monthGrossMinor == 1498 && apple.monthCharges == 2)
    #expect(summary.revenue[1].monthGrossMinor == 700)
    #expect(summary.text.contains("No findings."))
  }

  @Test func experimentVerdictsArePrinted() {
    var facts = Self.facts([])
    var control = ExperimentVerdict.Arm(
      id: "control", figures: [("P(best)", "0.4%"), ("assigned", "140"), ("conversion", "4.1%")])
    control.tints["P(best)"] = .bad
    var high = ExperimentVerdict.Arm(
      id: "high", figures: [("P(best)", "99.6%"), ("assigned", "141"), ("conversion", "3.9%")])
    high.tints["P(best)"] = .good
    facts.experiments = [
      ExperimentVerdict(
        experimentId: "paywall-price-2026-09", verdict: "high earns more than control.",
        notes: ["No sample-ratio mismatch."], arms: [control, high])
    ]
    let summary = ReportSummary.build(facts)
    #expect(summary.text.contains("\npaywall-price-2026-09:\nhigh earns more than control.\n"))
    #expect(summary.text.contains("No sample-ratio mismatch."))
    // A row per figure, a column per arm.
    #expect(summary.text.contains("\n  figure      control   high\n"))
    #expect(summary.text.contains("\n  conversion     4.1%   3.9%\n"))
    #expect(!summary.text.contains("Price tests: not configured"))
    // The readout comes right after the status.
    #expect(Array(summary.sections.map(\.title).prefix(2)) == ["Status", "Price tests"])
    // P(best) tinted: green at 95 % or more, red at 5 % or less.
    #expect(summary.html.contains("background:#dafbe1;font-weight:bold;\">99.6%</td>"))
    #expect(summary.html.contains("background:#ffebe9;font-weight:bold;\">0.4%</td>"))
    #expect(summary.html.contains(">control</th>"))
  }

  @Test func priceTestsStayLowWhenNotConfigured() {
    let summary = ReportSummary.build(Self.facts([]))
    #expect(summary.sections.map(\.title).dropLast().last == "Price tests")
  }

  @Test func htmlIsSelfContainedAndEscaped() {
    var evil = Self.finding(.refunded, "<script>alert('x')</script>", Self.usd, 100)
    evil.productId = "a&b \"quoted\""
    var facts = Self.facts([evil])
    facts.incomplete = ["play.sales: <b>no</b> rows"]
    let html = ReportSummary.build(facts).html
    #expect(!html.contains("<script"))
    #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
    #expect(html.contains("a&amp;b &quot;quoted&quot;"))
    #expect(html.contains("INCOMPLETE play.sales: &lt;b&gt;no&lt;/b&gt; rows"))
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.contains("<meta charset=\"utf-8\">"))
    for forbidden in ["<link", "<img", "src=", "href=", "http://", "https://", "@import", "url("] {
      #expect(!html.contains(forbidden), "\(forbidden)")
    }
    // One style sheet, in the head: the narrow-screen cards (SummaryLayoutTests); classes only for it.
    #expect(html.components(separatedBy: "<style").count == 2)
    let classes = Set(HTMLClasses.of(html))
    #expect(classes.isSubset(of: ["sr-cards", "sr-head", "sr-float"]), "\(classes)")
    // Every opened table is closed.
    #expect(html.components(separatedBy: "<table").count == html.components(separatedBy: "</table>").count)
  }

  @Test func tableTextAlignsColumnsWithoutTrailingSpaces() {
    let table = SummaryTable(
      headers: ["name", "n"], rightAligned: [1], rows: [["a", "1"], ["long name", "100"], ["x"]])
    #expect(table.text(indent: "") == ["name         n", "a            1", "long name  100", "x"])
  }
}

/// The `class="…"` values of an HTML text.
enum HTMLClasses {
  static func of(_ html: String) -> [String] {
    html.components(separatedBy: "class=\"").dropFirst().compactMap {
      $0.split(separator: "\"").first.map(String.init)
    }
  }
}
