import Testing
import StoreReconTestSupport

@testable import StoreReconCore

@Suite struct CountsReportTests {
  @Test func theReportsPaidUnitsStandBesideChainsAndEntitlements() {
    let later = Fx.t.adding(ms: Fx.days(10))
    let ledger = Fx.ledger([
      Fx.appleMonthly("1", until: later),
      PlayTieOutTests.charge("GPA.1111-1111-1111-11111", day: "2026-11-29T10:00:00Z"),
      PlayTieOutTests.charge("GPA.2222-2222-2222-22222", day: "2026-11-28T10:00:00Z"),
    ])
    let base = CountsRow.rows(
      ledger: ledger, entitlements: [Fx.ent("e1", user: "u1", key: "1", expires: later)], asOf: Fx.t)
    var reports = StoreReportRows()
    reports.appleSales = [
      TieOutTests.sales("2026-11-28", units: 4), TieOutTests.sales("2026-11-28", units: -1, price: -499),
      TieOutTests.sales("2026-11-28", units: 2, price: 0),
    ]
    let rows = CountsRow.withReportUnits(
      base, reports: reports, ledger: ledger, date: CivilDate(year: 2026, month: 11, day: 29),
      appleDay: CivilDate(year: 2026, month: 11, day: 28), hasPlaySales: true)
    let summary = rows.map {
      "\($0.store.rawValue) \($0.productId) \($0.chainsPaidThrough) \($0.entitlementsActive) "
        + "\($0.reportPaidUnits.map(String.init) ?? "-") \($0.detail)"
    }
    #expect(
      summary == [
        "app_store com.acme.pro.monthly 1 1 3 the store's report of 2026-11-28 counts 3 paid units",
        // Two Play charges, each paid through a month (the default period), no entitlement.
        "play pro:monthly 2 0 1 2 chains paid through T without an active entitlement; "
          + "the store's report of 2026-11-29 counts 1 paid unit",
      ])
  }
}
