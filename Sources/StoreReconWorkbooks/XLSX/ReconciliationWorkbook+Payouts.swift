import StoreReconCore
import StoreReconReports

extension ReconciliationWorkbook {
  /// **Payouts**: payouts.csv's lines (docs/reports.md#payoutscsv): each payout and each region of an
  /// Apple payment, its parts, the store's and the FX table's rate, and whether it adds up; `detail`
  /// wrapped in a wide column.
  static func writePayouts(_ lines: [PayoutLine], into workbook: XLSXWorkbook, rowLimit: Int)
    throws(XLSXError)
  {
    let header = [
      "store", "payout_id", "kind", "region", "currency", "gross", "fees", "refunds", "fee_refunds", "taxes",
      "adjustments", "carried", "net", "exchange_rate", "payout_currency", "payout", "fx_table_rate",
      "fx_table_payout", "fx_difference", "source", "difference", "status", "detail",
    ]
    _ = try workbook.writeTable(
      name: "Payouts", header: header, rowCount: lines.count, rowLimit: rowLimit, wide: [22]
    ) {
      i in
      let l = lines[i]
      let c = l.currency
      let p = l.payoutCurrency
      func money(_ v: Int64?, _ currency: Currency) -> XLSXCell {
        v.map { XLSXCell.money(minor: $0, currency: currency) } ?? .empty
      }
      let differenceCurrency = l.status == .proceedsDiffers || l.status == .paymentDiffers ? p : c
      return [
        .text(l.store.rawValue), .text(l.payoutId), .text(l.kind.rawValue), .text(l.region), .text(c.code),
        money(l.grossMinor, c), money(l.feesMinor, c), money(l.refundsMinor, c), money(l.feeRefundsMinor, c),
        money(l.taxesMinor, c), money(l.adjustmentsMinor, c), money(l.carriedMinor, c), money(l.netMinor, c),
        .text(l.exchangeRate), .text(p.code), money(l.payoutMinor, p), .text(l.fxTableRate),
        money(l.fxTablePayoutMinor, p), money(l.fxDifferenceMinor, p),
        money(l.sourceMinor, l.kind == .payout ? p : c), money(l.differenceMinor, differenceCurrency),
        .text(l.status.rawValue), wrapped(l.detail),
      ]
    }
  }
}
