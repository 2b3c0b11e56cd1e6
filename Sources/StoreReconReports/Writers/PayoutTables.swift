package import StoreReconCore

/// Renders the payouts as payouts.csv (docs/reports.md#payoutscsv) and the summary's line on them.
package enum PayoutTables {
  /// The file name beside the other reports.
  package static let fileName = "payouts.csv"

  /// The columns of payouts.csv.
  package static let header = [
    "store", "payout_id", "period", "kind", "region", "currency", "gross_minor", "fees_minor",
    "refunds_minor", "fee_refunds_minor", "taxes_minor", "adjustments_minor", "carried_minor", "net_minor",
    "exchange_rate", "payout_currency", "payout_minor", "fx_table_rate", "fx_table_payout_minor",
    "fx_difference_minor", "source_minor", "difference_minor", "status", "detail", "source", "rows",
  ]

  /// `payouts.csv`: one row per payout and per region of an Apple payment.
  package static func csv(_ lines: [PayoutLine]) -> [UInt8] {
    var csv = CSVWriter(header: header)
    func cell(_ v: Int64?) -> String { v.map { String($0) } ?? "" }
    for l in lines {
      csv.row([
        l.store.rawValue, l.payoutId, l.period, l.kind.rawValue, l.region, l.currency.code,
        cell(l.grossMinor),
        cell(l.feesMinor), cell(l.refundsMinor), cell(l.feeRefundsMinor), cell(l.taxesMinor),
        cell(l.adjustmentsMinor), cell(l.carriedMinor), String(l.netMinor), l.exchangeRate,
        l.payoutCurrency.code, String(l.payoutMinor), l.fxTableRate, cell(l.fxTablePayoutMinor),
        cell(l.fxDifferenceMinor), cell(l.sourceMinor), String(l.differenceMinor), l.status.rawValue,
        l.detail, l.source, String(l.rows),
      ])
    }
    return csv.bytes
  }

  /// The latest payout of each store (the greatest period; of several, every currency), in the words
  /// of the summary: `app_store 2026-10 1,234.56 EUR (1 line does not add up)`.
  package static func lastPayouts(_ lines: [PayoutLine]) -> [String] {
    var latest: [Store: String] = [:]
    for l in lines where l.kind == .payout {
      if let p = latest[l.store], p >= l.period { continue }
      latest[l.store] = l.period
    }
    var out: [String] = []
    for store in latest.keys.sorted() {
      guard let period = latest[store] else { continue }
      let ofPeriod = lines.filter { $0.store == store && $0.period == period }
      let payouts = ofPeriod.filter { $0.kind == .payout }
      let differing = ofPeriod.filter { $0.status != .addsUp }.count
      var text =
        "\(store.rawValue) \(period) "
        + payouts.map { Grouped.money(Money(minor: $0.payoutMinor, currency: $0.payoutCurrency)) }
        .joined(separator: " + ")
      if differing > 0 {
        text += differing == 1 ? " (1 line does not add up)" : " (\(differing) lines do not add up)"
      }
      out.append(text)
    }
    return out
  }
}
