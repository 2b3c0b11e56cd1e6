/// The dated FX table: converts minor units of any currency into minor units of the reporting
/// currency exactly, rounding once per conversion by an explicit rule.
///
/// A charge converts at the rate of its own day or, when that day has none, the latest earlier one.
/// A currency with no rate on or before the day is a gap (`nil`), never a silent zero.
package struct FXRateBook: Sendable {
  /// The currency every rate converts into.
  package let reporting: Currency
  private var rates: [Currency: [(day: Int64, rate: DecimalRate)]] = [:]

  /// A table for `reporting` from `rows` (later rows for the same currency and date win; the reader
  /// rejects such duplicates before they get here).
  package init(reporting: Currency, rows: [FXRate] = []) {
    self.reporting = reporting
    var byCurrency: [Currency: [Int64: DecimalRate]] = [:]
    for row in rows where row.currency != reporting {
      byCurrency[row.currency, default: [:]][row.date.daysSinceEpoch] = row.rate
    }
    for (currency, days) in byCurrency {
      rates[currency] = days.map { (day: $0.key, rate: $0.value) }.sorted { $0.day < $1.day }
    }
  }

  /// The rate for `currency` on `date`: that day's, else the latest earlier one; 1 for the reporting
  /// currency itself; `nil` when the table has none on or before `date`.
  package func rate(_ currency: Currency, on date: CivilDate) -> DecimalRate? {
    if currency == reporting { return .one }
    guard let list = rates[currency] else { return nil }
    let day = date.daysSinceEpoch
    var lower = 0
    var upper = list.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if list[middle].day <= day { lower = middle + 1 } else { upper = middle }
    }
    return lower == 0 ? nil : list[lower - 1].rate
  }

  /// `minor` minor units of `currency` on `date` in minor units of the reporting currency, rounded
  /// once by `rounding`; `nil` when there is no rate (or, absurdly, the result overflows).
  package func convert(_ minor: Int64, from currency: Currency, on date: CivilDate, rounding: RoundingRule)
    -> Int64?
  {
    conversion(from: currency, on: date)?.apply(minor, rounding: rounding)
  }

  /// The conversion of `currency` on `date` into the reporting currency, worked out once for many
  /// amounts; `nil` when there is no rate.
  func conversion(from currency: Currency, on date: CivilDate) -> Conversion? {
    if currency == reporting { return Conversion(identity: true, factor: 1, up: 0, down: 0) }
    guard let rate = rate(currency, on: date), let from = currency.minorUnits, let to = reporting.minorUnits
    else { return nil }
    // minor / 10^from × mantissa / 10^scale × 10^to
    var up = to
    var down = rate.scale + from
    let common = min(up, down)
    up -= common
    down -= common
    return Conversion(identity: false, factor: rate.mantissa, up: up, down: down)
  }

  /// Minor units of one currency on one day into minor units of the reporting currency:
  /// `minor × factor × 10^up / 10^down`, rounded once.
  struct Conversion: Sendable {
    /// The reporting currency itself: amounts pass unchanged.
    let identity: Bool
    let factor: Int64
    let up: Int
    let down: Int

    /// `minor` converted; `nil` if the result overflows.
    @inline(__always)
    func apply(_ minor: Int64, rounding: RoundingRule) -> Int64? {
      if identity { return minor }
      return ExactScale.apply(minor, factor: factor, up: up, down: down, rounding: rounding)
    }
  }

  /// Currencies the table has rates for (the reporting currency excluded), sorted.
  package var currencies: [Currency] { rates.keys.sorted() }
}
