package import StoreReconCore

/// The `Date:` header form of RFC 5322 §3.3, in UTC: `Mon, 30 Nov 2026 06:15:00 +0000`.
package enum RFC5322Date {
  static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// `instant` written as an RFC 5322 date-time with zone `+0000`.
  package static func format(_ instant: Instant) -> String {
    let (days, msOfDay) = instant.ms.floorDivided(by: Instant.msPerDay)
    let date = CivilDate(daysSinceEpoch: days)
    let weekday = weekdays[Int(days.floorDivided(by: 7).remainder)]
    let h = msOfDay / 3_600_000
    let m = msOfDay / 60_000 % 60
    let s = msOfDay / 1000 % 60
    return
      "\(weekday), \(date.day) \(months[date.month - 1]) \(date.year) \(Instant.pad(h, 2)):\(Instant.pad(m, 2)):\(Instant.pad(s, 2)) +0000"
  }
}
