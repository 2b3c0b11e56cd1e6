import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Pacific-Time day spans worked out by hand (2026: PDT, UTC−7, from 8 March to 1 November; else PST).
enum Pacific {
  static func span(_ text: String) -> ReportDaySpan {
    let day = CivilDate.parse(text)!
    let summer =
      day >= CivilDate(year: 2026, month: 3, day: 8) && day < CivilDate(year: 2026, month: 11, day: 1)
    let offset: Int64 = summer ? 7 : 8
    let endOffset: Int64 = day == CivilDate(year: 2026, month: 10, day: 31) ? 8 : offset
    return ReportDaySpan(
      day: day, start: Instant(ms: day.startUTC.ms + offset * 3_600_000),
      end: Instant(ms: day.next.startUTC.ms + endOffset * 3_600_000))
  }

  static func settings(_ days: [String]) -> TieOutSettings {
    var settings = TieOutSettings()
    settings.appleDays = days.map(span).sorted { $0.day < $1.day }
    return settings
  }
}

@Suite struct TieOutTests {
  static let usd = Fx.usd

  /// A Summary Sales row of `units` at `price` per unit (US, USD; proceeds 70 %).
  static func sales(
    _ day: String, _ product: String = "com.acme.pro.monthly", units: Int64, price: Int64 = 499,
    country: String = "US", line: Int32 = 2
  ) -> AppleSalesRow {
    let d = CivilDate.parse(day)!
    return AppleSalesRow(
      day: d, endDay: d, productId: product, productType: "IAY", units: units, customerPriceMinor: price,
      customerCurrency: usd, proceedsPerUnitMinor: price * 7 / 10, proceedsCurrency: usd, country: country,
      origin: Origin(file: 0, line: line))
  }

  /// A production App Store purchase in the US storefront.
  static func apple(
    _ id: String, at: String, price: Int64 = 499, quantity: UInt16 = 1, revokedAt: String? = nil,
    family: Bool = false, sandbox: Bool = false, upgraded: Bool = false, storefront: String = "USA"
  ) -> StoreTransaction {
    var r = Fx.apple(
      id, original: id, at: Fx.at(at), expires: nil, price: price, sandbox: sandbox, family: family,
      revokedAt: revokedAt.map(Fx.at), upgraded: upgraded)
    r.country = CountryCode.pack(storefront)
    r.quantity = quantity
    return r
  }

  static func rows(_ sales: [AppleSalesRow]) -> StoreReportRows {
    var rows = StoreReportRows()
    rows.appleSales = sales
    return rows
  }

  static func summary(_ tieOut: TieOut) -> [String] {
    tieOut.cells.map {
      "\($0.day) \($0.productId) \($0.country) \($0.status.rawValue) \($0.reportUnits)/\($0.ledgerUnits) "
        + "\($0.reportGrossMinor)/\($0.ledgerGrossMinor)"
    }
  }

  @Test func aWorldWithoutDifferencesGivesOnlyMatch() {
    let ledger = Fx.ledger([
      Self.apple("1", at: "2026-11-10T12:00:00Z"),
      Self.apple("2", at: "2026-11-10T20:00:00Z"),
      Self.apple("3", at: "2026-11-11T09:00:00Z", storefront: "DEU"),
      // Not tied out: Family Sharing and Sandbox move no money.
      Self.apple("4", at: "2026-11-10T13:00:00Z", family: true),
      Self.apple("5", at: "2026-11-10T14:00:00Z", sandbox: true),
    ])
    let reports = Self.rows([
      Self.sales("2026-11-10", units: 2), Self.sales("2026-11-11", units: 1, country: "DE"),
    ])
    let tieOut = TieOut.build(
      ledger: ledger, reports: reports, settings: Pacific.settings(["2026-11-10", "2026-11-11"]))
    #expect(
      Self.summary(tieOut) == [
        "2026-11-10 com.acme.pro.monthly US match 2/2 998/998",
        "2026-11-11 com.acme.pro.monthly DE match 1/1 499/499",
      ])
    #expect(tieOut.cells.allSatisfy { $0.detail.isEmpty })
  }

  @Test func eachStatusIsTheDifferenceItNames() {
    let ledger = Fx.ledger([
      Self.apple("1", at: "2026-11-10T12:00:00Z"),
      Self.apple("2", at: "2026-11-11T12:00:00Z"),
      Self.apple("3", at: "2026-11-11T13:00:00Z"),
      Self.apple("4", at: "2026-11-12T12:00:00Z"),
    ])
    let reports = Self.rows([
      Self.sales("2026-11-10", units: 2),  // one charge the server never saw
      Self.sales("2026-11-11", units: 1),  // one transaction the store does not report
      Self.sales("2026-11-12", units: 1, price: 449),  // same unit, other money
      Self.sales("2026-11-13", units: 1),  // nothing in the feed at all
    ])
    let tieOut = TieOut.build(
      ledger: ledger, reports: reports,
      settings: Pacific.settings(["2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13"]))
    #expect(
      Self.summary(tieOut) == [
        "2026-11-10 com.acme.pro.monthly US report_more 2/1 998/499",
        "2026-11-11 com.acme.pro.monthly US report_less 1/2 499/998",
        "2026-11-12 com.acme.pro.monthly US price_differs 1/1 449/499",
        "2026-11-13 com.acme.pro.monthly US report_more 1/0 499/0",
      ])
    #expect(tieOut.cells[0].unitsDiff == 1 && tieOut.cells[0].grossDiffMinor == 499)
    #expect(
      tieOut.cells[1].detail.hasPrefix(
        "the transaction feed shows 1 unit (4.99 USD) the store does not report"))
    #expect(tieOut.cells[2].detail == "same 1 unit; the store's gross is 0.50 USD less")
  }

  @Test func pacificDaysFollowDaylightSavingTime() {
    // Winter (PST, UTC−8): 07:30 UTC is still the previous Pacific day, 08:30 UTC the same day —
    // the example of the issue. Summer (PDT, UTC−7): the day starts at 07:00 UTC, so 06:30 UTC is the
    // previous day and 07:30 UTC the same day.
    let ledger = Fx.ledger([
      Self.apple("w1", at: "2026-11-10T07:30:00Z"), Self.apple("w2", at: "2026-11-10T08:30:00Z"),
      Self.apple("s1", at: "2026-07-14T06:30:00Z", price: 699),
      Self.apple("s2", at: "2026-07-14T07:30:00Z", price: 699),
    ])
    let reports = Self.rows([
      Self.sales("2026-11-09", units: 1), Self.sales("2026-11-10", units: 1),
      Self.sales("2026-07-13", units: 1, price: 699), Self.sales("2026-07-14", units: 1, price: 699),
    ])
    let tieOut = TieOut.build(
      ledger: ledger, reports: reports,
      settings: Pacific.settings(["2026-07-13", "2026-07-14", "2026-11-09", "2026-11-10"]))
    #expect(
      Self.summary(tieOut) == [
        "2026-07-13 com.acme.pro.monthly US match 1/1 699/699",
        "2026-07-14 com.acme.pro.monthly US match 1/1 699/699",
        "2026-11-09 com.acme.pro.monthly US match 1/1 499/499",
        "2026-11-10 com.acme.pro.monthly US match 1/1 499/499",
      ])
  }

  @Test func refundsFreeUnitsAndQuantities() {
    let ledger = Fx.ledger([
      // Refunded on the 12th: −1 unit and −price that day.
      Self.apple("1", at: "2026-11-10T12:00:00Z", revokedAt: "2026-11-12T12:00:00Z"),
      // Three coins for 2.97: three units.
      Self.apple("2", at: "2026-11-10T13:00:00Z", price: 297, quantity: 3),
      // A free trial: a free unit, not money.
      Self.apple("3", at: "2026-11-10T14:00:00Z", price: 0),
      // An upgrade's revocation returns no money.
      Self.apple("4", at: "2026-11-10T15:00:00Z", revokedAt: "2026-11-12T13:00:00Z", upgraded: true),
    ])
    var coins = Self.sales("2026-11-10", "com.acme.pro.monthly", units: 3, price: 99)
    coins.productType = "IA1"
    let reports = Self.rows([
      Self.sales("2026-11-10", units: 2), coins, Self.sales("2026-11-10", units: 1, price: 0),
      // Apple's refund row: negative units and a negative customer price.
      Self.sales("2026-11-12", units: -1, price: -499),
    ])
    let tieOut = TieOut.build(
      ledger: ledger, reports: reports, settings: Pacific.settings(["2026-11-10", "2026-11-12"]))
    #expect(
      Self.summary(tieOut) == [
        "2026-11-10 com.acme.pro.monthly US match 5/5 1295/1295",
        "2026-11-12 com.acme.pro.monthly US match -1/-1 -499/-499",
      ])
    #expect(tieOut.cells[0].reportFreeUnits == 1 && tieOut.cells[0].ledgerFreeUnits == 1)
    #expect(tieOut.cells[0].detail == "free units (price 0): report 1, feed 1")
    // 3 × 0.69 + 2 × 3.49 proceeds on the report side; the refund takes 3.49 back.
    #expect(tieOut.cells[0].reportProceedsMinor == 2 * 349 + 3 * 69)
    #expect(tieOut.cells[1].reportProceedsMinor == -349)
  }

  @Test func appRowsAndDaysNotOverByTAreLeftOut() {
    let ledger = Fx.ledger(
      [Self.apple("1", at: "2026-11-29T12:00:00Z")], asOf: Fx.at("2026-11-30T00:00:00Z"))
    var app = Self.sales("2026-11-28", "com.acme.app", units: 40, price: 0)
    app.productType = "1F"
    let reports = Self.rows([app, Self.sales("2026-11-29", units: 2)])
    let tieOut = TieOut.build(
      ledger: ledger, reports: reports, settings: Pacific.settings(["2026-11-28", "2026-11-29"]))
    // The Pacific 29th ends at 08:00 UTC on the 30th, after T: not tied out; the 28th has only an app row.
    #expect(tieOut.cells.isEmpty)
    #expect(tieOut.skippedAppleDays == [CivilDate(year: 2026, month: 11, day: 29)])
  }
}
