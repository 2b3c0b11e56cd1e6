import Testing

@testable import StoreReconCore

/// Stripe payouts from the balance report (docs/reports.md#payoutscsv).
@Suite struct StripePayoutsTests {
  static let usd = Currency.named("USD")!

  static func row(
    _ id: String, _ category: String, gross: Int64, fee: Int64, net: Int64? = nil, payout: String = "po_1"
  )
    -> StripeBalanceRow
  {
    var row = StripeBalanceRow(
      id: id, created: CivilDate(year: 2026, month: 11, day: 3).startUTC, currency: usd, grossMinor: gross,
      feeMinor: fee, netMinor: net ?? gross - fee, category: category, origin: Origin(file: 1, line: 2))
    row.payoutId = payout
    row.payoutAt = CivilDate(year: 2026, month: 11, day: 6).startUTC
    return row
  }

  @Test func aPayoutsPartsAddUpToItsNet() throws {
    var reports = StoreReportRows()
    reports.stripeBalance = [
      Self.row("txn_1", "charge", gross: 1000, fee: 59),
      Self.row("txn_2", "charge", gross: 2000, fee: 88),
      Self.row("txn_3", "refund", gross: -1000, fee: 0),
      Self.row("txn_4", "dispute", gross: -2000, fee: 1500),
      Self.row("txn_5", "charge", gross: 500, fee: 20, payout: ""),
    ]
    let lines = Payouts.lines(reports).filter { $0.store == .stripe }
    try #require(lines.count == 1)
    let line = lines[0]
    #expect(line.payoutId == "po_1" && line.period == "2026-11-06" && line.rows == 4)
    #expect(line.grossMinor == 3000 && line.refundsMinor == -1000 && line.adjustmentsMinor == -2000)
    #expect(line.feesMinor == -1647 && line.netMinor == -1647 && line.payoutMinor == -1647)
    #expect(line.status == .addsUp && line.source == "stripe_balance")
    #expect(line.detail.contains("disputes -20.00 USD"))
  }

  @Test func aRowWhoseNetIsNotGrossLessFeeAndAPayoutThatDiffersAreOneLineEach() throws {
    var reports = StoreReportRows()
    reports.stripeBalance = [
      Self.row("txn_1", "charge", gross: 1000, fee: 59, net: 951),
      Self.row("txn_2", "charge", gross: 1000, fee: 59, payout: "po_2"),
    ]
    var payout = Self.row("txn_p", "payout", gross: -950, fee: 0, payout: "")
    payout.sourceId = "po_2"
    reports.stripeBalance.append(payout)
    let lines = Payouts.lines(reports).filter { $0.store == .stripe }.sorted { $0.payoutId < $1.payoutId }
    try #require(lines.count == 2)
    #expect(lines[0].status == .netDiffers && lines[0].differenceMinor == 10)
    #expect(lines[0].detail.contains("txn_1"))
    #expect(
      lines[1].status == .paymentDiffers && lines[1].differenceMinor == 9 && lines[1].payoutMinor == 950)
  }
}
