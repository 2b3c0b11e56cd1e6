import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Per-arm metrics, intervals, verdicts and the cumulative series of the readout (its reproducibility,
/// compared through the experiment tables, is checked in StoreReconReportsTests).
@Suite struct ReadoutMetricsTests {
  @Test func armRowsCountMoneyAndRatesInTheirCurrencies() throws {
    // Control: u1 pays 4.99 USD twice (Apple, 30 %); u2 pays 4.99 EUR incl. 0.80 tax (Play, 15 %); u3 nothing.
    var play = Fx.playCharge("GPA.5555-5555-5555-55555", at: Fx.at("2026-09-12T00:00:00Z"))
    play.purchaseToken = "tokE"
    let status = Fx.playStatus(
      token: "tokE", latestOrder: "GPA.5555-5555-5555-55555", start: Fx.at("2026-09-12T00:00:00Z"),
      expiry: Fx.at("2026-10-12T00:00:00Z"))
    let r = Ex.readout(
      [Ex.apple("1", "1", "2026-09-10T10:00:00Z"), Ex.apple("2", "1", "2026-10-10T10:00:00Z"), play, status],
      credentials: [Fx.cred(key: "1", user: "u1"), Fx.cred(.play, key: "tokE", user: "u2")],
      assignments: ["u1", "u2", "u3"].map { Ex.assign($0, "control", "2026-09-05T00:00:00Z") },
      fx: [Ex.rate("2026-09-01", "EUR", "1.0845")])
    let control = r.arms[0]
    #expect(control.currencies.map(\.currency.code) == ["EUR", "USD"])
    let eur = control.currencies[0]
    let usd = control.currencies[1]
    #expect(
      eur.assigned == 3 && eur.paidConversions == 1 && eur.grossMinor == 499 && eur.proceedsMinor == 356)
    #expect(
      usd.paidConversions == 1 && usd.renewals == 1 && usd.grossMinor == 998 && usd.proceedsMinor == 698)
    // EUR → USD per charge: gross 499 × 1.0845 = 541.1655 → 541; proceeds 356 × 1.0845 = 386.082 → 386.
    let rep = control.reporting
    #expect(rep.currency == Fx.usd && rep.scope == .reporting)
    #expect(rep.assigned == 3 && rep.paidConversions == 2 && rep.renewals == 1)
    #expect(rep.grossMinor == 998 + 541)
    #expect(rep.proceedsMinor == 698 + 386)
    // 1084 / 3 = 361.33 → 361.
    #expect(rep.revenuePerAssignedMinor == 361)
    #expect(eur.revenuePerAssignedMinor == 119)  // 356 / 3 = 118.67
    let rate = try #require(rep.conversionRate)
    #expect(abs(rate - 2.0 / 3.0) < 1e-12)
    let wilson = try #require(WilsonInterval.interval(successes: 2, trials: 3))
    #expect(rep.conversionInterval == wilson)
    // Both charges and the Play one have had a full month by T.
    #expect(rep.subscriptionLineages == 2 && rep.matureShare == 1)
    // The bootstrap interval lies within the possible per-user means (0 … 1084 / 3 · 3).
    let interval = try #require(rep.revenuePerAssignedInterval)
    #expect(interval.low >= 0 && interval.low <= 361 && interval.high >= 361 && interval.high <= 698)
  }

  @Test func higherRevenuePerUserWithAnIntervalAwayFromZeroLeads() {
    let control = Ex.cohort("control", prefix: "c", n: 200, payers: 80, price: 499)
    let high = Ex.cohort("high", prefix: "h", n: 200, payers: 70, price: 999)
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments)
    #expect(r.arms.map(\.verdict) == [.control, .leading])
    let difference = r.arms[1].difference
    // Per user: control 80 × 349 / 200 = 139.6; high 70 × 699 / 200 = 244.65.
    #expect(abs((difference?.estimate ?? 0) - 105.05) < 1e-9)
    #expect((difference?.bootstrap?.low ?? 0) > 0)
    #expect((difference?.welch?.low ?? 0) > 0)
    #expect(r.arms[1].reporting.revenuePerAssignedMinor == 245)  // 244.65 → 245
    // Trailing is the mirror image.
    let cheap = Ex.cohort("high", prefix: "h", n: 200, payers: 40, price: 299)
    let t = Ex.readout(
      control.records + cheap.records, credentials: control.credentials + cheap.credentials,
      assignments: control.assignments + cheap.assignments)
    #expect(t.arms.map(\.verdict) == [.control, .trailing])
    // A small difference on a small sample is inconclusive.
    let similar = Ex.cohort("high", prefix: "h", n: 200, payers: 78, price: 499)
    let i = Ex.readout(
      control.records + similar.records, credentials: control.credentials + similar.credentials,
      assignments: control.assignments + similar.assignments)
    #expect(i.arms.map(\.verdict) == [.control, .inconclusive])
  }

  @Test func sampleRatioMismatchNamesNoWinner() throws {
    let control = Ex.cohort("control", prefix: "c", n: 100, payers: 40, price: 499)
    let high = Ex.cohort("high", prefix: "h", n: 160, payers: 120, price: 999)
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments)
    // chi2 = 2 × 30² / 130 = 13.85, df 1, p ≈ 0.0002.
    let srm = try #require(r.srm)
    #expect(abs(srm.statistic - 13.846153846153847) < 1e-9)
    #expect(srm.pValue < 0.001)
    #expect(r.arms.map(\.verdict) == [.srm, .srm])
  }

  @Test func armThatHasNotLivedABillingCycleIsImmature() {
    // High's buyers paid on 11-20: their first month ends 12-20, after T (11-30).
    let control = Ex.cohort("control", prefix: "c", n: 50, payers: 20, price: 499)
    var high = Ex.cohort("high", prefix: "h", n: 50, payers: 0, price: 999)
    for i in 0..<20 {
      high.records.append(Ex.apple("late-\(i)", "late-\(i)", "2026-11-20T10:00:00Z", price: 999))
      high.credentials.append(Fx.cred(key: "late-\(i)", user: "h\(i)"))
    }
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments)
    #expect(r.arms[0].reporting.matureShare == 1)
    #expect(r.arms[1].reporting.matureShare == 0)
    #expect(r.arms.map(\.verdict) == [.control, .immature])
    // An immature control makes every comparison immature.
    var lenient = Ex.experiment
    lenient.maturityThreshold = 0
    let ok = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments, experiment: lenient)
    #expect(ok.arms[1].verdict != .immature)
  }

  @Test func seriesIsCumulativeRevenuePerAssignedUserByDay() throws {
    let control = Ex.cohort("control", prefix: "c", n: 4, payers: 2, price: 499, months: 2)
    let r = Ex.readout(control.records, credentials: control.credentials, assignments: control.assignments)
    let series = r.arms[0].series
    // 2026-09-01 … 2026-11-29: 90 days.
    #expect(series.count == 90)
    #expect(series.first?.day == CivilDate(year: 2026, month: 9, day: 1) && series.first?.assigned == 0)
    #expect(series.first?.revenuePerAssignedMinor == nil)
    let day = try #require(series.first { $0.day == CivilDate(year: 2026, month: 9, day: 10) })
    #expect(day.dayIndex == 9 && day.assigned == 4 && day.cumulativeProceedsMinor == 2 * 349)
    #expect(day.revenuePerAssignedMinor == 174)  // 698 / 4 = 174.5 → 174 (half-even)
    #expect(series.last?.cumulativeProceedsMinor == Int64(4 * 349))
    #expect(series.last?.revenuePerAssignedMinor == r.arms[0].reporting.revenuePerAssignedMinor)
    #expect(r.arms[1].series.allSatisfy { $0.assigned == 0 && $0.cumulativeProceedsMinor == 0 })
  }
}

/// The day an immature arm reaches the maturity threshold with the lineages credited so far.
@Suite struct MaturesAtTests {
  static func row(lineages: Int, mature: Int) -> ArmRow {
    var r = ArmRow(scope: .reporting, currency: Currency.all[0])
    r.subscriptionLineages = lineages
    r.matureLineages = mature
    return r
  }

  @Test func theLineageThatTakesTheShareOverTheThreshold() {
    // 6 of 10 mature; 90 % needs 3 more: the third of the immature ones to mature, in time order.
    let at = Readout.maturesAt(
      Self.row(lineages: 10, mature: 6), immature: [400, 100, 300, 200], threshold: 0.9)
    #expect(at == Instant(ms: 300))
  }

  @Test func nothingWhenMatureOrWithoutSubscriptions() {
    #expect(Readout.maturesAt(Self.row(lineages: 10, mature: 9), immature: [5], threshold: 0.9) == nil)
    #expect(Readout.maturesAt(Self.row(lineages: 0, mature: 0), immature: [], threshold: 0.9) == nil)
  }
}
