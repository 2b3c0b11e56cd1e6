import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The summary's Tie-out and Payouts sections, and tie-out thresholds turning the status to ALERT.
struct TieOutSummaryTests {
  static let date = CivilDate(year: 2026, month: 9, day: 30)

  static func origin(_ line: Int) -> Origin { Origin(file: 0, line: Int32(line)) }

  static var payouts: [PayoutTotal] {
    var rows = StoreReportRows()
    let usd = TieOutFixture.usd
    let eur = TieOutFixture.eur
    let day = CivilDate(year: 2026, month: 9, day: 3)
    for (i, (currency, amount)) in [(eur, Int64(849)), (usd, 1698), (eur, -150)].enumerated() {
      rows.playEarnings.append(
        PlayEarningsRow(
          month: CivilDate(year: 2026, month: 9, day: 1), orderId: "GPA.\(i)", day: day, type: .charge,
          productId: "pro.monthly", country: "US", buyerCurrency: usd, buyerAmountMinor: 999,
          merchantCurrency: currency, merchantAmountMinor: amount, origin: origin(i + 2)))
    }
    rows.appleFinancial.append(
      AppleFinancialRow(
        startDay: CivilDate(year: 2026, month: 8, day: 31), endDay: CivilDate(year: 2026, month: 9, day: 27),
        productId: "pro.monthly", productType: "IAY", quantity: 3, partnerShareMinor: 699,
        extendedPartnerShareMinor: 2097, partnerShareCurrency: usd, isReturn: false, country: "US",
        customerPriceMinor: 999, customerCurrency: usd, origin: origin(2)))
    return PayoutTotal.payoutTotals(rows)
  }

  static func facts(tieOut: TieOut, payouts: [PayoutTotal] = []) -> SummaryFacts {
    SummaryFacts(
      version: "9.9.9", date: date, asOf: date.next.startUTC, timeZone: "UTC", inputs: [], findings: [],
      revenue: [], tieOut: tieOut, payouts: payouts)
  }

  /// The lines of section `title` of summary.txt, without its title and underline.
  static func section(_ text: String, _ title: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: title) else { return [] }
    let body = lines[(start + 2)...]
    return Array(body.prefix { !$0.isEmpty })
  }

  /// The what-to-do sentence of `subject`.
  static func step(_ subject: NextStep.Subject) -> String { NextStep.of(subject)?.whatToDo ?? "?" }

  @Test func theOrderTableIsHeadedByTheStoresItHolds() {
    #expect(
      ReportSummary.ordersHeading([.play]) == "Google Play orders (earnings Charge against sales Item Price)")
    #expect(
      ReportSummary.ordersHeading([.stripe]) == "Stripe charges and refunds (balance report against the feed)"
    )
    #expect(
      ReportSummary.ordersHeading([.play, .stripe]).hasSuffix(
        "; Stripe charges and refunds (balance report against the feed)"))
  }

  @Test func payoutTotalsPerKindAndCurrency() {
    let usd = TieOutFixture.usd
    let eur = TieOutFixture.eur
    #expect(
      Self.payouts == [
        PayoutTotal(kind: .appleFinancial, currency: usd, amountMinor: 2097, rows: 1),
        PayoutTotal(kind: .playEarnings, currency: eur, amountMinor: 699, rows: 2),
        PayoutTotal(kind: .playEarnings, currency: usd, amountMinor: 1698, rows: 1),
      ])
    #expect(PayoutTotal.payoutTotals(StoreReportRows()).isEmpty)
  }

  @Test func tieOutAndPayoutSections() {
    let summary = ReportSummary.build(Self.facts(tieOut: TieOutFixture.tieOut, payouts: Self.payouts))
    let text = summary.unwrappedText
    #expect(
      Self.section(text, "Tie-out") == [
        "The stores' own reports against the transaction feed, per cell (Apple: report day; Play: earnings month) of product, country and currency; money is the buyer's gross. Per cell: tieout.csv; per Play order or Stripe charge and refund: tieout_orders.csv.",
        "  store      source         status         cells  |gross difference|  report gross",
        "  app_store  apple_sales    match              1                   0      9.99 EUR",
        "  app_store  apple_sales    report_more        1            9.99 USD     29.97 USD",
        "  app_store  apple_sales    report_less        0                   —             —",
        "  app_store  apple_sales    price_differs      1             400 JPY     4,900 JPY",
        "  play       play_earnings  match              0                   —             —",
        "  play       play_earnings  report_more        0                   —             —",
        "  play       play_earnings  report_less        1            9.99 USD     19.98 USD",
        "  play       play_earnings  price_differs      0                   —             —",
        "What to do:",
        "  tieout/report_more — docs/tieout.md#report_more",
        "    " + Self.step(.tieOutCell(.reportMore)),
        "  tieout/report_less — docs/tieout.md#report_less",
        "    " + Self.step(.tieOutCell(.reportLess)),
        "  tieout/price_differs — docs/tieout.md#price_differs",
        "    " + Self.step(.tieOutCell(.priceDiffers)),
        "Google Play orders (earnings Charge against sales Item Price):",
        "  store  status               orders  |earnings − sales|  |actual − estimated fee|",
        "  play   match                     1                   0                         0",
        "  play   missing_in_earnings       1            9.99 USD                  1.50 USD",
        "  play   missing_in_sales          0                   —                         —",
        "  play   amount_differs            1            1.00 USD                  0.15 USD",
        "  play   fee_differs               1                   0                  1.50 USD",
        "What to do:",
        "  tieout_orders/missing_in_earnings — docs/tieout.md#missing_in_earnings",
        "    " + Self.step(.tieOutOrder(.missingInEarnings)),
        "  tieout_orders/amount_differs — docs/tieout.md#amount_differs",
        "    " + Self.step(.tieOutOrder(.amountDiffers)),
        "  tieout_orders/fee_differs — docs/tieout.md#fee_differs",
        "    " + Self.step(.tieOutOrder(.feeDiffers)),
      ])
    #expect(
      Self.section(text, "Payouts") == [
        "What the settlement reports pay out per payout currency: Play earnings Σ Amount (Merchant Currency), fees and taxes included; Apple Financial reports Σ Extended Partner Share per Partner Share Currency; Stripe's balance report Σ net of the balance transactions its payouts pay out (automatic_payout_id).",
        "  report           currency  payout  rows",
        "  apple_financial  USD        20.97     1",
        "  play_earnings    EUR         6.99     2",
        "  play_earnings    USD        16.98     1",
      ])
    #expect(
      text.hasSuffix(
        "Reports: findings.csv, revenue.csv, counts.csv, grants.csv, tieout.csv, tieout_orders.csv, rejects/, manifest.json.\n"
      ))
    let html = summary.html
    #expect(html.contains(">Tie-out</h2>") && html.contains(">Payouts</h2>"))
    // Six columns: a real table whose cells carry their column's name (cards on a phone only); a
    // short cell on one line on a desktop (no break at its underscore; the phone's style wraps it).
    #expect(
      html.contains("<td data-label=\"store\"") && html.contains("white-space:nowrap;\">app_store</td>"))
    #expect(html.contains(">report_more</td>"))
    #expect(html.contains(">|earnings − sales|</th>"))
    // Each status with a difference: a row of the steps' table, its label and docs link in the first
    // cell, what to do beside it.
    #expect(
      html.contains(
        "<b>tieout/report_less</b> · <span style=\"color:#59636e;\">docs/tieout.md#report_less</span></td>"))
    #expect(html.contains(HTMLText.escape(Self.step(.tieOutOrder(.feeDiffers))) + "</td></tr>"))
    #expect(!html.contains("<b>tieout/match</b>") && !html.contains("missing_in_sales</b>"))
    // A hosted docs base makes the links web links.
    var hosted = Self.facts(tieOut: TieOutFixture.tieOut)
    hosted.docsBase = "https://wiki.example.com/sr/"
    #expect(
      ReportSummary.build(hosted).html.contains(
        "<a href=\"https://wiki.example.com/sr/tieout.md#report_more\" style=\"color:#0969da;\">docs</a>"))
    // Sections in order: revenue, tie-out, payouts, price tests, then the inputs.
    let titles = summary.sections.map(\.title)
    #expect(Array(titles.suffix(5)) == ["Revenue", "Tie-out", "Payouts", "Price tests", "Inputs"])
  }

  /// A money cell lists the currencies whose difference is not zero only; all zero is `0`, none `—`.
  @Test func zeroAmountsAreLeftOutOfAMoneyCell() {
    let usd = Currency.named("USD")!
    let chf = Currency.named("CHF")!
    let jpy = Currency.named("JPY")!
    #expect(
      ReportSummary.moneyText([Money(minor: 0, currency: chf), Money(minor: 0, currency: jpy)]) == "0")
    #expect(
      ReportSummary.moneyText([
        Money(minor: 0, currency: chf), Money(minor: 0, currency: jpy), Money(minor: 2, currency: usd),
      ]) == "0.02 USD")
    #expect(ReportSummary.moneyText([]) == "—")
  }

  /// Stripe's payouts are rows of the Payouts table beside Play's and Apple's: per payout currency, what
  /// they pay and the balance report rows behind them (regions and other lines left out).
  @Test func stripePayoutsAreRowsOfThePayoutsTable() {
    let usd = Currency.named("USD")!
    let eur = Currency.named("EUR")!
    func line(_ id: String, _ currency: Currency, _ minor: Int64, rows: Int) -> PayoutLine {
      var l = PayoutLine(
        store: .stripe, payoutId: id, period: "2026-11-03", kind: .payout, currency: currency,
        netMinor: minor,
        payoutCurrency: currency, payoutMinor: minor, source: "stripe_balance")
      l.rows = rows
      return l
    }
    var facts = Self.facts(tieOut: TieOutFixture.tieOut, payouts: Self.payouts)
    facts.payoutLines = [
      line("po_2", usd, 20_000, rows: 5), line("po_1", usd, 1_234, rows: 2), line("po_3", eur, 999, rows: 1),
    ]
    let rows = Self.section(ReportSummary.build(facts).unwrappedText, "Payouts").filter {
      $0.hasPrefix("  stripe_balance")
    }
    #expect(
      rows == [
        "  stripe_balance   EUR         9.99     1",
        "  stripe_balance   USD       212.34     7",
      ])
  }

  @Test func withoutStoreReports() {
    let text = ReportSummary.build(Self.facts(tieOut: TieOut())).unwrappedText
    #expect(
      Self.section(text, "Tie-out") == [
        "No store report configured (appStore.salesReports, play.earnings): nothing to tie the transactions out to."
      ])
    #expect(
      Self.section(text, "Payouts") == [
        "No settlement report configured (play.earnings, appStore.financialReports, appStore.financialSummaries): no payout totals."
      ])
    #expect(
      text.hasSuffix("Reports: findings.csv, revenue.csv, counts.csv, grants.csv, rejects/, manifest.json.\n")
    )
  }

  @Test func tieOutThresholdsMakeTheStatusAlert() {
    var facts = Self.facts(tieOut: TieOutFixture.tieOut)
    facts.alerts = [
      AlertRule(target: .tieOutCells(.reportMore), maxCount: 0),
      AlertRule(target: .tieOutCells(.priceDiffers), maxCount: 5, maxAmount: [TieOutFixture.jpy: 400]),
      AlertRule(target: .tieOutOrders(.missingInEarnings), maxCount: 0),
    ]
    let summary = ReportSummary.build(facts)
    #expect(summary.isAlert && summary.status == "ALERT")
    #expect(
      summary.headline
        == "ALERT — 6 new, 0 open — 2026-09-30; tieout/report_more: 1 cells > maxCount 0; tieout_orders/missing_in_earnings: 1 orders > maxCount 0; new (no run history: all new): 3 tie-out cells, 3 tie-out orders"
    )
    #expect(summary.text.contains("\nALERT tieout/report_more: 1 cells > maxCount 0\n"))
    // The same limits one unit wider: no alert.
    facts.alerts = [
      AlertRule(target: .tieOutCells(.reportMore), maxCount: 1),
      AlertRule(target: .tieOutCells(.priceDiffers), maxAmount: [TieOutFixture.jpy: 399]),
    ]
    #expect(
      ReportSummary.build(facts).breaches.map(\.text) == [
        "tieout/price_differs: 400 JPY gross difference > maxAmount 399 JPY"
      ])
    facts.alerts[1].maxAmount = [TieOutFixture.jpy: 400]
    #expect(!ReportSummary.build(facts).isAlert)
  }

  @Test func paidUnitsAgainstTheConsole() {
    var facts = Self.facts(tieOut: TieOutFixture.tieOut)
    var reported = CountsRow(store: .appStore, productId: "pro.monthly")
    reported.chainsPaidThrough = 10
    reported.entitlementsActive = 11
    reported.reportPaidUnits = 9
    reported.detail = "1 entitlement more than chains; report 1 fewer"
    var unreported = CountsRow(store: .stripe, productId: "pro.monthly")
    unreported.chainsPaidThrough = 4
    facts.counts = [reported, unreported]
    let lines = Self.section(ReportSummary.build(facts).unwrappedText, "Tie-out")
    #expect(
      Array(lines.suffix(3)) == [
        "Paid units in the store's latest report of the day, against chains and entitlements (counts.csv):",
        "  store      product      report paid units  chains paid through  entitlements active  detail",
        "  app_store  pro.monthly                  9                   10                   11  1 entitlement more than chains; report 1 fewer",
      ])
  }
}
