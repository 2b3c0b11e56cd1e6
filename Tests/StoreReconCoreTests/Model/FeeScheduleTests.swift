import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Store fees in basis points of the price before tax, one half-even rounding per charge.
@Suite struct FeeScheduleTests {
  @Test func feeIsRoundedHalfEvenPerCharge() {
    // 30 % of 4.99: 149.7 → 150; of 4.95: 148.5 → 148 (tie to even); of 4.85: 145.5 → 146.
    #expect(
      FeeSchedule.proceeds(grossMinor: 499, taxMinor: 0, basisPoints: 3000, rounding: .halfEven) == (150, 349)
    )
    #expect(
      FeeSchedule.proceeds(grossMinor: 495, taxMinor: 0, basisPoints: 3000, rounding: .halfEven) == (148, 347)
    )
    #expect(
      FeeSchedule.proceeds(grossMinor: 485, taxMinor: 0, basisPoints: 3000, rounding: .halfEven) == (146, 339)
    )
    #expect(
      FeeSchedule.proceeds(grossMinor: 495, taxMinor: 0, basisPoints: 3000, rounding: .halfUp) == (149, 346))
    // Play: 15 % of the price before tax: 4.99 with 0.80 tax → 4.19 × 15 % = 62.85 → 63; proceeds 3.56.
    #expect(
      FeeSchedule.proceeds(grossMinor: 499, taxMinor: 80, basisPoints: 1500, rounding: .halfEven) == (63, 356)
    )
    // JPY has no minor digits: 700 × 30 % = 210 exactly.
    #expect(
      FeeSchedule.proceeds(grossMinor: 700, taxMinor: 0, basisPoints: 3000, rounding: .halfEven) == (210, 490)
    )
  }

  @Test func scheduleByStoreProductAndSubscriptionAge() {
    var fees = FeeSchedule()
    let first = Fx.at("2026-01-15T10:00:00Z")
    func bp(_ store: Store, _ subscription: Bool, _ at: String) -> Int64 {
      fees.basisPoints(
        store: store, subscription: subscription, chargedAt: Fx.at(at), chainFirstPaidAt: first)
    }
    #expect(bp(.appStore, true, "2026-12-15T10:00:00Z") == 3000)
    #expect(bp(.appStore, true, "2027-01-15T09:59:59Z") == 3000)
    #expect(bp(.appStore, true, "2027-01-15T10:00:00Z") == 1500)  // one year after the chain's first charge
    #expect(bp(.appStore, false, "2027-06-15T10:00:00Z") == 3000)  // not a subscription
    #expect(bp(.play, true, "2026-02-15T10:00:00Z") == 1500)
    #expect(bp(.play, false, "2026-02-15T10:00:00Z") == 3000)
    fees.appStoreSmallBusiness = true
    fees.playOneTimeBp = 1500
    #expect(bp(.appStore, true, "2026-02-15T10:00:00Z") == 1500)
    #expect(bp(.appStore, false, "2026-02-15T10:00:00Z") == 1500)
    #expect(bp(.play, false, "2026-02-15T10:00:00Z") == 1500)
  }

  @Test func readoutAppliesTheAfterFirstYearRateInsideAChain() {
    // A chain bought before the experiment cannot be credited, so the experiment here starts early.
    var experiment = Ex.experiment
    experiment.enrollStart = CivilDate(year: 2025, month: 10, day: 1)
    let r = Ex.readout(
      [Ex.apple("1", "1", "2025-11-10T10:00:00Z"), Ex.apple("2", "1", "2026-11-10T10:00:00Z")],
      credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [Ex.assign("u1", "control", "2025-11-01T00:00:00Z")], experiment: experiment)
    // 499 − 150 (30 %) and 499 − 75 (15 %, 74.85 → 75).
    #expect(r.lineage.map(\.proceedsMinor) == [349, 424])
  }
}
