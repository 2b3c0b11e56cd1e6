@testable import StoreReconCore

/// A small hand-made tie-out: one cell of every status (Apple days and a Play earnings month) and one
/// Play order of four statuses, in the order the run sorts them.
enum TieOutFixture {
  static let usd = Currency.named("USD")!
  static let eur = Currency.named("EUR")!
  static let jpy = Currency.named("JPY")!

  static func cell(
    _ source: StoreReportKind, _ day: CivilDate, _ product: String, _ country: String, _ currency: Currency,
    report: (Int64, Int64), ledger: (Int64, Int64), _ status: TieOutCell.Status, _ detail: String = ""
  ) -> TieOutCell {
    var c = TieOutCell(
      store: source.store, source: source, day: day, productId: product, country: country, currency: currency)
    (c.reportUnits, c.reportGrossMinor) = report
    (c.ledgerUnits, c.ledgerGrossMinor) = ledger
    c.status = status
    c.detail = detail
    return c
  }

  static var cells: [TieOutCell] {
    let sep3 = CivilDate(year: 2026, month: 9, day: 3)
    let sep4 = CivilDate(year: 2026, month: 9, day: 4)
    var de = cell(
      .appleSales, sep3, "pro.monthly", "DE", eur, report: (1, 999), ledger: (1, 999), .match)
    de.reportFreeUnits = 2
    de.ledgerFreeUnits = 2
    de.reportProceedsMinor = 699
    de.ledgerProceedsMinor = 699
    var us = cell(
      .appleSales, sep3, "pro.monthly", "US", usd, report: (3, 2997), ledger: (2, 1998), .reportMore,
      "1 unit the feed does not show")
    us.reportProceedsMinor = 2097
    us.ledgerProceedsMinor = 1398
    var jp = cell(
      .appleSales, sep4, "pro.yearly", "JP", jpy, report: (1, 4900), ledger: (1, 4500), .priceDiffers,
      "same units, 400 JPY more")
    jp.proceedsCurrency = usd
    jp.reportProceedsMinor = 2300
    jp.ledgerProceedsMinor = 3150
    var play = cell(
      .playEarnings, CivilDate(year: 2026, month: 9, day: 1), "pro.monthly", "US", usd, report: (2, 1998),
      ledger: (3, 2997), .reportLess, "feed has 1 more unit, a duplicate?")
    play.reportProceedsMinor = 1698
    play.ledgerProceedsMinor = 2547
    return [de, us, jp, play]
  }

  static func order(
    _ id: String, sales: Int64, earnings: Int64, fees: (Int64, Int64), _ status: TieOutOrder.Status,
    _ detail: String = ""
  ) -> TieOutOrder {
    var o = TieOutOrder(
      orderId: id, month: CivilDate(year: 2026, month: 9, day: 1), productId: "pro.monthly", currency: usd)
    o.salesItemMinor = sales
    o.earningsChargeMinor = earnings
    (o.estimatedFeeMinor, o.actualFeeMinor) = fees
    o.status = status
    o.detail = detail
    return o
  }

  static var orders: [TieOutOrder] {
    [
      order("GPA.1", sales: 999, earnings: 999, fees: (150, 150), .match),
      order("GPA.2..0", sales: 999, earnings: 0, fees: (150, 0), .missingInEarnings, "no earnings row"),
      order("GPA.3", sales: 999, earnings: 899, fees: (150, 135), .amountDiffers, "Charge 8.99 ≠ 9.99"),
      order("GPA.4", sales: 999, earnings: 999, fees: (150, 300), .feeDiffers),
    ]
  }

  static var tieOut: TieOut { TieOut(cells: cells, orders: orders) }
}
