import Testing
import StoreReconTestSupport

@testable import StoreReconCore

@Suite struct RevenueTests {
  @Test func chargesAndRefundsLandOnTheirDays() {
    let day1 = Fx.at("2026-11-01T10:00:00Z")
    let charge = Fx.apple(
      "1", original: "1", at: day1, expires: Fx.at("2026-12-01T10:00:00Z"), price: 497,
      revokedAt: Fx.at("2026-11-03T09:00:00Z"), revocationType: "REFUND_PRORATED", percent: 50_000)
    let family = Fx.apple("2", original: "2", at: day1, expires: nil, family: true)
    let sandbox = Fx.apple("3", original: "3", at: day1, expires: nil, sandbox: true)
    let play = Fx.playCharge("GPA.1", at: Fx.at("2026-11-02T23:59:59Z"), amount: 599, tax: 100)
    let playRefund = Fx.playRefund("GPA.1", at: Fx.at("2026-11-03T01:00:00Z"), amount: 599)
    let rows = Revenue.rows(
      ledger: Fx.ledger([charge, family, sandbox, play, playRefund]),
      dayOf: { CivilDate(daysSinceEpoch: $0.ms.floorDivided(by: Instant.msPerDay).quotient) })
    let summary = rows.map {
      "\($0.day) \($0.store.rawValue) \($0.charges) \($0.grossMinor) \($0.taxMinor) \($0.refundsMinor) \($0.refundCount)"
    }
    #expect(
      summary == [
        "2026-11-01 app_store 1 497 0 0 0",
        "2026-11-02 play 1 599 100 0 0",
        // 50 % of 4.97 is 2.485: half-even gives 2.48, never a silently dropped or float-rounded cent.
        "2026-11-03 app_store 0 0 0 248 1",
        "2026-11-03 play 0 0 0 599 1",
      ])
  }

  @Test func countsCompareChainsAndEntitlements() {
    let later = Fx.t.adding(ms: Fx.days(10))
    let a = Fx.appleMonthly("1", until: later)
    let b = Fx.appleMonthly("2", until: Fx.t.adding(ms: -Fx.days(40)))
    let rows = CountsRow.rows(
      ledger: Fx.ledger([a, b]),
      entitlements: [
        Fx.ent("e1", user: "u1", key: "1", expires: later),
        Fx.ent("e2", user: "u2", key: "2", expires: later),
      ],
      asOf: Fx.t)
    #expect(rows.count == 1)
    #expect(rows.first?.chainsPaidThrough == 1)
    #expect(rows.first?.entitlementsActive == 2)
    #expect(rows.first?.difference == 1)
  }
}
