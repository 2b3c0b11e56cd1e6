/// A calendar date (proleptic Gregorian), used for report days and `--date`.
package struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Year, month (1–12), day (1–31).
  package var year: Int, month: Int, day: Int

  /// Creates a date; no validation beyond what ``parse(_:)`` does.
  package init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// Days since 1970-01-01 (negative before).
  package var daysSinceEpoch: Int64 {
    // Howard Hinnant's days_from_civil.
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `days` days after 1970-01-01.
  package init(daysSinceEpoch days: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.init(year: Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), month: Int(m), day: Int(d))
  }

  /// The next calendar day.
  package var next: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + 1) }
  /// The previous calendar day.
  package var previous: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch - 1) }

  /// Midnight at the start of this date in UTC.
  package var startUTC: Instant { Instant(ms: daysSinceEpoch * Instant.msPerDay) }

  package static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// `YYYY-MM-DD`.
  package var description: String {
    "\(Instant.pad(Int64(year), 4))-\(Instant.pad(Int64(month), 2))-\(Instant.pad(Int64(day), 2))"
  }

  /// Parses `YYYY-MM-DD`, checking the day exists in that month.
  package static func parse(_ text: String) -> CivilDate? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
    guard let y = digits(bytes, 0, 4), let m = digits(bytes, 5, 2), let d = digits(bytes, 8, 2) else {
      return nil
    }
    guard m >= 1 && m <= 12 && d >= 1 && d <= daysIn(year: y, month: m) else { return nil }
    return CivilDate(year: y, month: m, day: d)
  }

  static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for i in start..<(start + count) {
      let b = bytes[i]
      guard b >= 0x30 && b <= 0x39 else { return nil }
      value = value * 10 + Int(b - 0x30)
    }
    return value
  }

  /// Days in a month of a year.
  package static func daysIn(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
