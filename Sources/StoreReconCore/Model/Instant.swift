/// A point in time: milliseconds since 1970-01-01T00:00:00Z.
///
/// Store timestamps are kept at millisecond precision. Parsers apply the written UTC offset, so two
/// instants written with different offsets compare correctly.
package struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since the Unix epoch (UTC).
  package var ms: Int64

  /// Creates an instant from milliseconds since the epoch.
  package init(ms: Int64) { self.ms = ms }

  /// The latest representable instant: "no end" (a lifetime unlock is paid through `distantFuture`).
  package static let distantFuture = Instant(ms: Int64.max / 4)
  /// The earliest representable instant.
  package static let distantPast = Instant(ms: Int64.min / 4)

  package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.ms < rhs.ms }

  /// This instant moved by `ms` milliseconds.
  package func adding(ms delta: Int64) -> Instant { Instant(ms: ms &+ delta) }

  /// This instant moved by whole days.
  package func adding(days: Int64) -> Instant { adding(ms: days * Instant.msPerDay) }

  /// Milliseconds in a day.
  package static let msPerDay: Int64 = 86_400_000

  /// ISO 8601 in UTC with milliseconds: `2026-11-29T10:00:00.000Z`; `never` for ``distantFuture``.
  package var description: String {
    if self >= Instant.distantFuture { return "never" }
    let (days, msOfDay) = ms.floorDivided(by: Instant.msPerDay)
    let date = CivilDate(daysSinceEpoch: days)
    let h = msOfDay / 3_600_000
    let m = msOfDay / 60_000 % 60
    let s = msOfDay / 1000 % 60
    let f = msOfDay % 1000
    return "\(date)T\(Self.pad(h, 2)):\(Self.pad(m, 2)):\(Self.pad(s, 2)).\(Self.pad(f, 3))Z"
  }

  package static func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}

extension Int64 {
  /// Floor division with a non-negative remainder.
  @inlinable
  public func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    var q = self / divisor
    var r = self % divisor
    if r < 0 {
      q -= 1
      r += divisor
    }
    return (q, r)
  }
}
