/// A billing period as ISO 8601 writes it (`P1M`, `P1Y`, `P1W`, `P7D`, `P3M`): months plus days.
package struct BillingPeriod: Hashable, Sendable, CustomStringConvertible {
  /// Whole calendar months (a year is 12).
  package var months: Int
  /// Whole days (a week is 7).
  package var days: Int

  /// Creates a period.
  package init(months: Int = 0, days: Int = 0) {
    self.months = months
    self.days = days
  }

  /// One calendar month: the default where the catalog does not say.
  package static let oneMonth = BillingPeriod(months: 1)

  /// Parses `P1M`, `P1Y`, `P2W`, `P7D`, `P1Y6M`; `nil` for anything else.
  package static func parse(_ text: String) -> BillingPeriod? {
    var bytes = Array(text.uppercased().utf8)
    guard bytes.first == 0x50, bytes.count >= 3 else { return nil }
    bytes.removeFirst()
    var period = BillingPeriod()
    var number = 0
    var sawDigit = false
    for b in bytes {
      if b >= 0x30 && b <= 0x39 {
        number = number * 10 + Int(b - 0x30)
        sawDigit = true
        guard number < 10_000 else { return nil }
        continue
      }
      guard sawDigit else { return nil }
      switch b {
      case 0x59: period.months += 12 * number
      case 0x4D: period.months += number
      case 0x57: period.days += 7 * number
      case 0x44: period.days += number
      default: return nil
      }
      number = 0
      sawDigit = false
    }
    guard !sawDigit, period.months > 0 || period.days > 0 else { return nil }
    return period
  }

  package var description: String {
    var text = "P"
    if months % 12 == 0 && months > 0 {
      text += "\(months / 12)Y"
    } else if months > 0 {
      text += "\(months)M"
    }
    if days > 0 { text += "\(days)D" }
    return text
  }

  /// `instant` advanced by this period on the UTC calendar; a day past the month's end is clamped
  /// (Jan 31 + 1 month = Feb 28/29), as the stores bill.
  package func advance(_ instant: Instant) -> Instant {
    let (days, msOfDay) = instant.ms.floorDivided(by: Instant.msPerDay)
    var date = CivilDate(daysSinceEpoch: days)
    if months != 0 {
      let total = date.year * 12 + (date.month - 1) + months
      let year = total >= 0 ? total / 12 : (total - 11) / 12
      let month = total - year * 12 + 1
      date = CivilDate(
        year: year, month: month, day: min(date.day, CivilDate.daysIn(year: year, month: month)))
    }
    return Instant(ms: (date.daysSinceEpoch + Int64(self.days)) * Instant.msPerDay + msOfDay)
  }
}
