import Testing
import StoreReconTestSupport

@testable import StoreReconCore

@Suite struct RevenueProceedsTests {
  static func utcDay(_ instant: Instant) -> CivilDate {
    CivilDate(daysSinceEpoch: instant.ms.floorDivided(by: Instant.msPerDay).quotient)
  }

  static func rows(_ ledger: Ledger, _ reports: StoreReportRows, _ settings: TieOutSettings) -> [String] {
    RevenueProceeds.apply(
      Revenue.rows(ledger: ledger, dayOf: utcDay), ledger: ledger, reports: reports, settings: settings,
      dayOf: utcDay
    ).map {
      "\($0.day) \($0.store.rawValue) \($0.productId) \($0.proceedsMinor) \($0.proceedsSource.rawValue)"
    }
  }

  @Test func eachChargeTakesTheMostSettledSourceThatCoversIt() {
    // Apple: one charge on a Summary Sales day (reported), one on a Financial month day (settled), one
    // on a day no report covers (estimated: 30 % of 4.99 is 1.497, half-even 1.50).
    var reported = TieOutTests.apple("1", at: "2026-11-10T12:00:00Z")
    reported.productId = "com.acme.a"
    var settled = TieOutTests.apple("2", at: "2026-10-10T12:00:00Z")
    settled.productId = "com.acme.b"
    var estimated = TieOutTests.apple("3", at: "2026-09-10T12:00:00Z")
    estimated.productId = "com.acme.c"
    // Play: one order the earnings report has (settled: Charge + Google fee), one it lacks (estimated:
    // 4.19 before tax, 15 % fee 0.63).
    var inEarnings = PlayTieOutTests.charge("GPA.1111-1111-1111-11111", amount: 499, tax: 80)
    inEarnings.productId = "pro:a"
    var notInEarnings = PlayTieOutTests.charge("GPA.2222-2222-2222-22222", amount: 499, tax: 80)
    notInEarnings.productId = "pro:b"
    let ledger = Fx.ledger([reported, settled, estimated, inEarnings, notInEarnings])
    var reports = StoreReportRows()
    reports.appleSales = [TieOutTests.sales("2026-11-10", "com.acme.a", units: 3)]  // 3.49 per unit
    let october = CivilDate(year: 2026, month: 10, day: 1)
    reports.appleFinancial = [
      AppleFinancialRow(
        startDay: CivilDate(year: 2026, month: 9, day: 27), endDay: CivilDate(year: 2026, month: 10, day: 31),
        productId: "com.acme.b", productType: "IAY", quantity: 5, partnerShareMinor: 350,
        extendedPartnerShareMinor: 1750, partnerShareCurrency: Fx.usd, isReturn: false, country: "US",
        customerPriceMinor: 499, customerCurrency: Fx.usd, origin: Origin(file: 1, line: 2))
    ]
    reports.playEarnings = [
      PlayTieOutTests.earnings("GPA.1111-1111-1111-11111", .charge, 419, line: 2),
      PlayTieOutTests.earnings("GPA.1111-1111-1111-11111", .googleFee, -70, line: 3),
    ]
    var days = ["2026-11-10"]
    var day = CivilDate(year: 2026, month: 9, day: 27)
    while day <= CivilDate(year: 2026, month: 10, day: 31) {
      days.append(day.description)
      day = day.next
    }
    _ = october
    let settings = Pacific.settings(days)
    #expect(
      Self.rows(ledger, reports, settings) == [
        "2026-09-10 app_store com.acme.c 349 estimated",
        "2026-10-03 play pro:a 349 settled",
        "2026-10-03 play pro:b 356 estimated",
        "2026-10-10 app_store com.acme.b 350 settled",
        "2026-11-10 app_store com.acme.a 349 reported",
      ])
  }

  @Test func aRowIsOnlyAsSettledAsItsLeastSettledCharge() {
    let ledger = Fx.ledger([
      PlayTieOutTests.charge("GPA.1111-1111-1111-11111", amount: 499, tax: 80),
      PlayTieOutTests.charge("GPA.2222-2222-2222-22222", amount: 499, tax: 80),
    ])
    var reports = StoreReportRows()
    reports.playEarnings = [
      PlayTieOutTests.earnings("GPA.1111-1111-1111-11111", .charge, 419, line: 2),
      PlayTieOutTests.earnings("GPA.1111-1111-1111-11111", .googleFee, -63, line: 3),
    ]
    #expect(Self.rows(ledger, reports, TieOutSettings()) == ["2026-10-03 play pro:monthly 712 estimated"])
  }
}
