package import StoreReconCore

/// Gross revenue per day and store over the days up to the report date, in one currency: the reporting
/// currency where the run has an FX table (every row converted at the table's rate), else the currency
/// with the most gross revenue over those days (the others left out, and said so). The workbook's
/// revenue chart and the summary's picture draw this one value.
package struct RevenueTrend: Sendable, Equatable {
  /// The currency of every amount.
  package var currency: Currency
  /// Where the amounts come from: `converted into USD (fx/rates.csv on …)` or `USD only: …`.
  package var note: String
  /// The days, oldest first, through the report date.
  package var days: [CivilDate]
  /// The stores with revenue in these days, in store order.
  package var stores: [Store]
  /// `grossMinor[s][d]`: store `s`'s gross on day `d`, in minor units of ``currency``.
  package var grossMinor: [[Int64]]

  /// How many days the pictures show.
  package static let dayCount = 30

  /// The trend over the `dayCount` days through `date`; `nil` when those days have no revenue.
  package static func build(
    revenue: [RevenueRow], date: CivilDate, fx: SummaryFX?, dayCount: Int = dayCount
  ) -> RevenueTrend? {
    let first = CivilDate(daysSinceEpoch: date.daysSinceEpoch - Int64(dayCount - 1))
    let rows = revenue.filter { $0.day >= first && $0.day <= date && $0.grossMinor != 0 }
    guard !rows.isEmpty else { return nil }
    var currency: Currency
    var note: String
    var amount: (RevenueRow) -> Int64?
    if let fx {
      currency = fx.reportingCurrency
      note = "converted into \(currency.code) (\(fx.label))"
      amount = { fx.convert(Money(minor: $0.grossMinor, currency: $0.currency)) }
    } else {
      var totals: [Currency: Int64] = [:]
      for r in rows { totals[r.currency] = add(totals[r.currency] ?? 0, r.grossMinor) }
      let largest = totals.keys.sorted().max { (totals[$0] ?? 0) < (totals[$1] ?? 0) }
      currency = largest ?? rows[0].currency
      let others = totals.count - 1
      note =
        others == 0
        ? "\(currency.code), the only currency"
        : "\(currency.code) only, the largest of \(totals.count) currencies (no FX table to convert the others)"
      let chosen = currency
      amount = { $0.currency == chosen ? $0.grossMinor : nil }
    }
    let days = (0..<dayCount).map { CivilDate(daysSinceEpoch: first.daysSinceEpoch + Int64($0)) }
    let stores = Store.allCases.filter { store in rows.contains { $0.store == store } }
    var gross = [[Int64]](repeating: [Int64](repeating: 0, count: dayCount), count: stores.count)
    for r in rows {
      guard let s = stores.firstIndex(of: r.store), let minor = amount(r) else { continue }
      let d = Int(r.day.daysSinceEpoch - first.daysSinceEpoch)
      gross[s][d] = add(gross[s][d], minor)
    }
    return RevenueTrend(currency: currency, note: note, days: days, stores: stores, grossMinor: gross)
  }

  /// A sum for a picture: held at Int64's bounds rather than wrapping (no real day comes near them).
  static func add(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : sum
  }
}
