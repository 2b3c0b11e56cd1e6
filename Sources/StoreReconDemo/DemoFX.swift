import StoreReconCore

/// The demo's FX table: one exact rate into USD per demo currency on the first day of every month
/// from the world's first month through T's month, written to `fx/rates.csv`.
///
/// The truth converts with its own month look-up (charges fall in a month whose first day has a row),
/// independently of the readout's table code.
enum DemoFX {
  /// Relative path of the table.
  static let path = "fx/rates.csv"
  /// The reporting currency of the demo's experiment readout.
  static let reporting = "USD"

  /// Base rate into USD per currency, as mantissa and decimal places: EUR 1.0850, GBP 1.2710,
  /// JPY 0.006712, KWD 3.2560, CHF 1.1290, BRL 0.18235.
  private static let base: [String: (mantissa: Int64, scale: Int)] = [
    "EUR": (10850, 4), "GBP": (12710, 4), "JPY": (6712, 6), "KWD": (32560, 4), "CHF": (11290, 4),
    "BRL": (18235, 5),
  ]

  /// The rate of `currency` in the month starting `month` (a first of month): the base rate moved by
  /// −0.3 % … +0.3 % in steps of 0.1 %, by month; three more decimal places, so it stays exact.
  static func rate(_ currency: Currency, month: CivilDate) -> (mantissa: Int64, scale: Int)? {
    if currency.code == reporting { return (1, 0) }
    guard let b = base[currency.code] else { return nil }
    let step = Int64((month.year * 12 + month.month) % 7) - 3
    var mantissa = b.mantissa * (1000 + step)
    var scale = b.scale + 3
    while scale > 0 && mantissa % 10 == 0 {
      mantissa /= 10
      scale -= 1
    }
    return (mantissa, scale)
  }

  /// First days of every month from `from`'s month through `through`'s month.
  static func months(from: CivilDate, through: CivilDate) -> [CivilDate] {
    var months: [CivilDate] = []
    var month = CivilDate(year: from.year, month: from.month, day: 1)
    while month <= through {
      months.append(month)
      month =
        month.month == 12
        ? CivilDate(year: month.year + 1, month: 1, day: 1)
        : CivilDate(year: month.year, month: month.month + 1, day: 1)
    }
    return months
  }

  /// `fx/rates.csv`: `date,currency,rate_to_reporting`, by date then currency.
  static func text(currencies: [Currency], from: CivilDate, through: CivilDate) -> String {
    var text = "date,currency,rate_to_reporting\n"
    let codes = Set(currencies.filter { $0.code != reporting }).sorted()
    for month in months(from: from, through: through) {
      for currency in codes {
        guard let r = rate(currency, month: month) else { continue }
        text += "\(month),\(currency.code),\(Currency.render(r.mantissa, scale: r.scale))\n"
      }
    }
    return text
  }

  /// `minor` of `currency` charged at `at`, in USD minor units, rounded half-even: the month's rate.
  static func toReporting(_ minor: Int64, _ currency: Currency, at: Instant) -> Int64? {
    let date = DemoCalendar.date(at)
    guard let r = rate(currency, month: CivilDate(year: date.year, month: date.month, day: 1)),
      let from = currency.minorUnits
    else { return nil }
    // USD has 2 decimals: minor × mantissa × 10^2 / 10^(scale + from).
    return RoundingRule.halfEven.scale(
      minor, numerator: r.mantissa * 100, denominator: Pow10.int64(r.scale + from))
  }
}
