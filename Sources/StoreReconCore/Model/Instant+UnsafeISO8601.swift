// Safety: the parser reads `bytes[i]` only for `i < bytes.count` — the fixed positions 0 to 15 after
// checking that there are at least 16 bytes, every later one after a check against the count — within
// the call, and keeps nothing; no precondition beyond the buffer being valid.

extension Instant {
  /// Parses an ISO 8601 / RFC 3339 timestamp with an explicit offset, from UTF-8 bytes.
  ///
  /// Accepts `2026-11-29T10:00:00Z`, `2026-11-29T10:00:00.123+02:00`, `2026-11-29 10:00:00+00`
  /// (PostgreSQL's text form), `+0200`, lower-case `t`/`z`, and any number of fraction digits
  /// (kept to the millisecond, truncated). A timestamp without an offset is ambiguous and is rejected.
  package static func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Instant? {
    let n = bytes.count
    guard n >= 16 else { return nil }
    @inline(__always) func digit(_ i: Int) -> Int64? {
      let b = bytes[i]
      return b >= 0x30 && b <= 0x39 ? Int64(b &- 0x30) : nil
    }
    @inline(__always) func two(_ i: Int) -> Int64? {
      guard i + 1 < n, let a = digit(i), let b = digit(i + 1) else { return nil }
      return a * 10 + b
    }
    guard let y1 = two(0), let y2 = two(2), bytes[4] == 0x2D, let month = two(5), bytes[7] == 0x2D,
      let day = two(8)
    else { return nil }
    let year = y1 * 100 + y2
    let sep = bytes[10]
    guard sep == 0x54 || sep == 0x74 || sep == 0x20 else { return nil }
    guard let hour = two(11), bytes[13] == 0x3A, let minute = two(14) else { return nil }
    guard
      month >= 1 && month <= 12 && day >= 1
        && day <= Int64(CivilDate.daysIn(year: Int(year), month: Int(month)))
        && hour <= 23 && minute <= 59
    else { return nil }
    var i = 16
    var second: Int64 = 0
    var millis: Int64 = 0
    if i < n && bytes[i] == 0x3A {
      guard let s = two(i + 1), s <= 60 else { return nil }
      second = min(s, 59)  // a leap second is kept inside its minute
      i += 3
      if i < n && (bytes[i] == 0x2E || bytes[i] == 0x2C) {
        i += 1
        var count = 0
        while i < n, let d = digit(i) {
          if count < 3 { millis = millis * 10 + d }
          count += 1
          i += 1
        }
        guard count > 0 else { return nil }
        while count < 3 {
          millis *= 10
          count += 1
        }
      }
    }
    guard i < n else { return nil }
    var offsetMinutes: Int64 = 0
    switch bytes[i] {
    case 0x5A, 0x7A:
      i += 1
    case 0x2B, 0x2D:
      let sign: Int64 = bytes[i] == 0x2D ? -1 : 1
      guard let oh = two(i + 1), oh <= 23 else { return nil }
      i += 3
      var om: Int64 = 0
      if i < n && bytes[i] == 0x3A {
        guard let m = two(i + 1), m <= 59 else { return nil }
        om = m
        i += 3
      } else if i + 1 < n, let m = two(i) {
        guard m <= 59 else { return nil }
        om = m
        i += 2
      }
      offsetMinutes = sign * (oh * 60 + om)
    default:
      return nil
    }
    guard i == n else { return nil }
    let days = CivilDate(year: Int(year), month: Int(month), day: Int(day)).daysSinceEpoch
    let local = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
    return Instant(ms: local - offsetMinutes * 60_000)
  }
}
