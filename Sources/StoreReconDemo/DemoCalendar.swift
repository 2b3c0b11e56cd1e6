import StoreReconCore

/// Calendar arithmetic on UTC instants, as stores bill: whole calendar months from an anchor.
enum DemoCalendar {
  /// `instant` moved by `months` calendar months, keeping the time of day; the day is clamped to the
  /// target month's length (Jan 31 + 1 month = Feb 28).
  static func addMonths(_ instant: Instant, _ months: Int) -> Instant {
    let (days, msOfDay) = instant.ms.floorDivided(by: Instant.msPerDay)
    let date = CivilDate(daysSinceEpoch: days)
    let total = date.year * 12 + (date.month - 1) + months
    let year = total >= 0 ? total / 12 : (total - 11) / 12
    let month = total - year * 12 + 1
    let day = min(date.day, CivilDate.daysIn(year: year, month: month))
    return Instant(
      ms: CivilDate(year: year, month: month, day: day).daysSinceEpoch * Instant.msPerDay + msOfDay)
  }

  /// The UTC calendar date of an instant.
  static func date(_ instant: Instant) -> CivilDate {
    CivilDate(daysSinceEpoch: instant.ms.floorDivided(by: Instant.msPerDay).quotient)
  }

  /// `instant` moved back to a day of month no later than the 28th, so adding or subtracting whole
  /// months from it is exact both ways.
  static func clampedToDay28(_ instant: Instant) -> Instant {
    let day = date(instant).day
    return day > 28 ? instant.adding(days: Int64(28 - day)) : instant
  }

  /// Milliseconds in an hour.
  static let msPerHour: Int64 = 3_600_000
}
