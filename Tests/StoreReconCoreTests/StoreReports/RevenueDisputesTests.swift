import Testing

@testable import StoreReconCore

/// Stripe's dispute rows as revenue columns of their own (docs/tieout.md#disputes-in-revenuecsv).
@Suite struct RevenueDisputesTests {
  typealias T = StripeTieOutTests

  static func dayOf(_ instant: Instant) -> CivilDate { StripeBalanceRow.utcDay(instant) }

  static func revenueRow(_ store: Store, _ product: String, _ day: CivilDate, gross: Int64) -> RevenueRow {
    var row = RevenueRow(day: day, store: store, productId: product, currency: T.usd)
    row.charges = 1
    row.grossMinor = gross
    return row
  }

  @Test func disputeAndItsReversalAreTheirOwnColumnsOnTheirDays() {
    let day = CivilDate(year: 2026, month: 11, day: 3)
    let next = CivilDate(year: 2026, month: 11, day: 4)
    let rows = [
      Self.revenueRow(.appStore, "pro_monthly", day, gross: 999),
      Self.revenueRow(.stripe, "pro_monthly", day, gross: 1000),
    ]
    let feed = [T.charge("ch_1", 1000, at: 1), T.charge("ch_2", 1000, at: 2)]
    let report = [
      T.row("txn_1", charge: "ch_1", gross: 1000, fee: 29, at: 1),
      T.row("txn_d1", charge: "ch_1", gross: -1000, fee: 1500, at: 5, category: "dispute", source: "du_1"),
      // Won a day later: the money back, and the fee returned.
      T.row(
        "txn_r1", charge: "ch_1", gross: 1000, fee: -1500, at: 30, category: "dispute_reversal",
        source: "du_1"),
      T.row("txn_d2", charge: "ch_2", gross: -400, fee: 1500, at: 6, category: "dispute", source: "du_2"),
      // A dispute of a charge the feed lacks (another partition's, or another product's): left out.
      T.row("txn_d3", charge: "ch_other", gross: -700, fee: 1500, at: 6, category: "dispute", source: "du_3"),
      // After T: left out.
      T.row("txn_d4", charge: "ch_2", gross: -600, fee: 1500, at: 100, category: "dispute", source: "du_4"),
    ]
    let out = RevenueDisputes.apply(rows, feed: feed, report: report, asOf: T.at(48), dayOf: Self.dayOf)
    #expect(out.count == 3)
    #expect(out[0].store == .appStore && out[0].disputedMinor == 0 && out[0].disputeFeesMinor == 0)
    #expect(out[1].store == .stripe && out[1].day == day)
    #expect(out[1].grossMinor == 1000 && out[1].charges == 1)
    #expect(out[1].disputedMinor == 1400)
    #expect(out[1].disputeFeesMinor == 3000)
    // The reversal's day has no charge: a row of its own, the money and the fee going back.
    #expect(out[2].store == .stripe && out[2].day == next && out[2].charges == 0)
    // Nothing estimated in it, so a merge of partitions keeps the day's other rows' source.
    #expect(out[2].proceedsMinor == 0 && out[2].proceedsSource == .settled)
    #expect(out[2].productId == "pro_monthly")
    #expect(out[2].disputedMinor == -1000)
    #expect(out[2].disputeFeesMinor == -1500)
  }

  @Test func aDisputeInTheBalanceCurrencyIsTakenIntoTheChargesThroughTheRate() {
    let feed = [T.charge("ch_eur", 1000, at: 1, currency: T.eur)]
    var dispute = T.row(
      "txn_d", charge: "ch_eur", gross: -1100, fee: 1500, at: 5, category: "dispute", source: "du_1")
    dispute.exchangeRate = "1.1"
    let out = RevenueDisputes.apply([], feed: feed, report: [dispute], asOf: T.at(48), dayOf: Self.dayOf)
    #expect(out.count == 1)
    #expect(out.first?.currency == T.eur)
    #expect(out.first?.disputedMinor == 1000)
    #expect(out.first?.disputeFeesMinor == 1364)
  }

  @Test func noDisputeRowsLeavesTheRowsAsTheyWere() {
    let rows = [
      Self.revenueRow(.stripe, "pro_monthly", CivilDate(year: 2026, month: 11, day: 3), gross: 1000)
    ]
    let report = [T.row("txn_1", charge: "ch_1", gross: 1000, fee: 29, at: 1)]
    let out = RevenueDisputes.apply(
      rows, feed: [T.charge("ch_1", 1000, at: 1)], report: report, asOf: T.at(48), dayOf: Self.dayOf)
    #expect(out == rows)
  }
}
