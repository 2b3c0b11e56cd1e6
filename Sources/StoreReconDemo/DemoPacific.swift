import StoreReconCore

/// US Pacific Time (America/Los_Angeles) computed from the US rule, without a time-zone database:
/// PDT (UTC−7) from the second Sunday of March 02:00 PST to the first Sunday of November 02:00 PDT,
/// PST (UTC−8) otherwise. Apple's daily sales reports and Play's earnings times use it.
enum DemoPacific {
  private static let hour: Int64 = 3_600_000

  /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
  static func weekday(_ date: CivilDate) -> Int {
    Int((date.daysSinceEpoch % 7 + 7 + 4) % 7)
  }

  /// The first Sunday of a month.
  static func firstSunday(year: Int, month: Int) -> CivilDate {
    let first = CivilDate(year: year, month: month, day: 1)
    return CivilDate(daysSinceEpoch: first.daysSinceEpoch + Int64((7 - weekday(first)) % 7))
  }

  /// Is daylight saving time (PDT) in effect at `instant`?
  static func isDaylight(_ instant: Instant) -> Bool {
    let year = DemoCalendar.date(instant).year
    let marchSunday = CivilDate(daysSinceEpoch: firstSunday(year: year, month: 3).daysSinceEpoch + 7)
    // 02:00 PST = 10:00 UTC; 02:00 PDT = 09:00 UTC.
    let start = marchSunday.startUTC.adding(ms: 10 * hour)
    let end = firstSunday(year: year, month: 11).startUTC.adding(ms: 9 * hour)
    return instant >= start && instant < end
  }

  /// Pacific local time of `instant` as an instant-shaped value (for its date and time of day).
  static func local(_ instant: Instant) -> Instant {
    instant.adding(ms: (isDaylight(instant) ? -7 : -8) * hour)
  }

  /// The Pacific calendar day of `instant`.
  static func day(_ instant: Instant) -> CivilDate { DemoCalendar.date(local(instant)) }

  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `Sep 3, 2026`: the Pacific date as Play's earnings report writes it.
  static func earningsDate(_ instant: Instant) -> String {
    let date = day(instant)
    return "\(monthNames[date.month - 1]) \(date.day), \(date.year)"
  }

  /// `5:05:59 PM PDT`: the Pacific time as Play's earnings report writes it.
  static func earningsTime(_ instant: Instant) -> String {
    let msOfDay = local(instant).ms.floorDivided(by: Instant.msPerDay).remainder
    let hours = msOfDay / hour
    let minutes = msOfDay / 60_000 % 60
    let seconds = msOfDay / 1000 % 60
    let twelve = hours % 12 == 0 ? 12 : hours % 12
    let zone = isDaylight(instant) ? "PDT" : "PST"
    let clock = "\(twelve):\(DemoIdentifiers.padded(minutes, 2)):\(DemoIdentifiers.padded(seconds, 2))"
    return "\(clock) \(hours < 12 ? "AM" : "PM") \(zone)"
  }
}
