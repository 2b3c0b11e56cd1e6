import Testing
import StoreReconTestSupport

@testable import StoreReconCore

@Suite struct PlayTieOutTests {
  static let eur = Fx.eur
  static let usd = Fx.usd
  static let october = CivilDate(year: 2026, month: 10, day: 1)

  static func earnings(_ order: String, _ type: PlayEarningsRow.TransactionType, _ amount: Int64, line: Int32)
    -> PlayEarningsRow
  {
    PlayEarningsRow(
      month: october, orderId: order, day: CivilDate(year: 2026, month: 10, day: 3), type: type,
      productId: "pro", country: "DE", buyerCurrency: eur, buyerAmountMinor: amount, merchantCurrency: usd,
      merchantAmountMinor: amount * 11 / 10, origin: Origin(file: 0, line: line))
  }

  static func charge(
    _ order: String, day: String = "2026-10-03T10:00:00Z", amount: Int64 = 595, tax: Int64 = 95
  )
    -> StoreTransaction
  {
    var r = Fx.playCharge(order, at: Fx.at(day), amount: amount, tax: tax)
    r.country = CountryCode.pack("DE")
    return r
  }

  @Test func ordersAndCellsOfAnEarningsMonth() {
    var refund = Fx.playRefund("GPA.1111-1111-1111-11111", at: Fx.at("2026-10-20T10:00:00Z"), amount: 595)
    refund.taxMinor = 95
    refund.country = CountryCode.pack("DE")
    let ledger = Fx.ledger([
      Self.charge("GPA.1111-1111-1111-11111"), refund,
      Self.charge("GPA.2222-2222-2222-22222"),  // no earnings row: missing_in_earnings
      Self.charge("GPA.3333-3333-3333-33333"),  // earnings charge 4.00: amount_differs
      Self.charge("GPA.4444-4444-4444-44444"),  // Google kept 30 %: fee_differs
      Self.charge("GPA.5555-5555-5555-55555", day: "2026-11-03T10:00:00Z"),  // November: no earnings yet
    ])
    var rows = StoreReportRows()
    rows.playEarnings = [
      Self.earnings("GPA.1111-1111-1111-11111", .charge, 500, line: 2),
      Self.earnings("GPA.1111-1111-1111-11111", .googleFee, -75, line: 3),
      Self.earnings("GPA.1111-1111-1111-11111", .chargeRefund, -500, line: 4),
      Self.earnings("GPA.1111-1111-1111-11111", .googleFeeRefund, 75, line: 5),
      Self.earnings("GPA.3333-3333-3333-33333", .charge, 400, line: 6),
      Self.earnings("GPA.3333-3333-3333-33333", .googleFee, -60, line: 7),
      Self.earnings("GPA.4444-4444-4444-44444", .charge, 500, line: 8),
      Self.earnings("GPA.4444-4444-4444-44444", .googleFee, -150, line: 9),
      Self.earnings("GPA.9999-9999-9999-99999", .charge, 500, line: 10),  // missing_in_sales
      Self.earnings("GPA.9999-9999-9999-99999", .googleFee, -75, line: 11),
    ]
    let tieOut = TieOut.build(ledger: ledger, reports: rows, settings: TieOutSettings())
    let orders = tieOut.orders.map {
      "\($0.orderId) \($0.status.rawValue) \($0.salesItemMinor) \($0.earningsChargeMinor) "
        + "\($0.estimatedFeeMinor) \($0.actualFeeMinor)"
    }
    #expect(
      orders == [
        "GPA.1111-1111-1111-11111 match 0 0 0 0",
        "GPA.2222-2222-2222-22222 missing_in_earnings 500 0 75 0",
        "GPA.3333-3333-3333-33333 amount_differs 500 400 75 60",
        "GPA.4444-4444-4444-44444 fee_differs 500 500 75 150",
        "GPA.9999-9999-9999-99999 missing_in_sales 0 500 0 75",
      ])
    #expect(tieOut.orders.allSatisfy { $0.month == Self.october && $0.productId == "pro" })
    // One cell for October, DE, EUR: 3 units net on both sides (4 October charges − 1 refund; the report's
    // 4 Charge rows − 1 Charge refund), at other money: 14.00 against 15.00 EUR before tax.
    #expect(tieOut.cells.count == 1)
    let cell = tieOut.cells[0]
    #expect(cell.source == .playEarnings && cell.productId == "pro" && cell.country == "DE")
    #expect(cell.reportUnits == 3 && cell.ledgerUnits == 3 && cell.status == .priceDiffers)
    #expect(cell.reportGrossMinor == 1400 && cell.ledgerGrossMinor == 1500)
    // Every row of the orders: 0 + 340 + 350 + 425.
    #expect(cell.reportProceedsMinor == 1115)
  }

  @Test func aRefundOnlyOneReportShowsNamesTheOtherReport() {
    func refund(_ order: String) -> StoreTransaction {
      var r = Fx.playRefund(order, at: Fx.at("2026-10-20T10:00:00Z"), amount: 595)
      r.taxMinor = 95
      r.country = CountryCode.pack("DE")
      return r
    }
    let ledger = Fx.ledger([
      Self.charge("GPA.1111-1111-1111-11111"), refund("GPA.1111-1111-1111-11111"),
      Self.charge("GPA.2222-2222-2222-22222"),
      Self.charge("GPA.3333-3333-3333-33333", day: "2026-09-03T10:00:00Z"),
      refund("GPA.3333-3333-3333-33333"),
      Self.charge("GPA.5555-5555-5555-55555"), refund("GPA.5555-5555-5555-55555"),
    ])
    var rows = StoreReportRows()
    rows.playEarnings = [
      // The sales report refunds it; the earnings report has only the charge.
      Self.earnings("GPA.1111-1111-1111-11111", .charge, 500, line: 2),
      Self.earnings("GPA.1111-1111-1111-11111", .googleFee, -75, line: 3),
      // Refunded in Play Console: only the earnings report has the refund.
      Self.earnings("GPA.2222-2222-2222-22222", .charge, 500, line: 4),
      Self.earnings("GPA.2222-2222-2222-22222", .googleFee, -75, line: 5),
      Self.earnings("GPA.2222-2222-2222-22222", .chargeRefund, -500, line: 6),
      Self.earnings("GPA.2222-2222-2222-22222", .googleFeeRefund, 75, line: 7),
      // GPA.3333…: charged in September, its refund in October in the sales report only.
      // An order charged in an earlier month, refunded now in the earnings report only.
      Self.earnings("GPA.4444-4444-4444-44444", .chargeRefund, -500, line: 8),
      // Both reports have the refund: match.
      Self.earnings("GPA.5555-5555-5555-55555", .charge, 500, line: 9),
      Self.earnings("GPA.5555-5555-5555-55555", .googleFee, -75, line: 10),
      Self.earnings("GPA.5555-5555-5555-55555", .chargeRefund, -500, line: 11),
      Self.earnings("GPA.5555-5555-5555-55555", .googleFeeRefund, 75, line: 12),
    ]
    let tieOut = TieOut.build(ledger: ledger, reports: rows, settings: TieOutSettings())
    #expect(
      tieOut.orders.map { "\($0.orderId) \($0.status.rawValue)" } == [
        "GPA.1111-1111-1111-11111 refund_not_in_earnings",
        "GPA.2222-2222-2222-22222 refund_not_in_sales",
        "GPA.3333-3333-3333-33333 refund_not_in_earnings",
        "GPA.4444-4444-4444-44444 refund_not_in_sales",
        "GPA.5555-5555-5555-55555 match",
      ])
    #expect(
      tieOut.orders[1].detail
        == "the earnings report refunds the order (a Charge refund, 0.00 EUR net); the sales report of the "
        + "month has no Refund row of it")
  }
}
