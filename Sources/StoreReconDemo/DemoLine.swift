import StoreReconCore

/// A reusable byte buffer that one output line (JSON object or CSV row) is built in.
///
/// Appending bytes directly keeps generation of millions of rows fast: no intermediate `String`s
/// for numbers and timestamps.
struct DemoLine {
  /// The line's bytes so far.
  var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(2048) }

  /// Empties the line, keeping its storage.
  mutating func reset() { bytes.removeAll(keepingCapacity: true) }

  /// Appends literal text.
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { unsafe bytes.append(contentsOf: $0) }
  }

  /// Appends a string's UTF-8 bytes as they are.
  mutating func text(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// Appends one byte.
  mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// Appends a decimal integer.
  mutating func int(_ value: Int64) {
    if value < 0 {
      bytes.append(0x2D)
      unsigned(value.magnitude)
    } else {
      unsigned(UInt64(value))
    }
  }

  /// Appends a decimal integer.
  mutating func int(_ value: Int) { int(Int64(value)) }

  private mutating func unsigned(_ value: UInt64) {
    var divisor: UInt64 = 1
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(0x30 + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// Appends a non-negative integer left-padded with zeros to `width` digits (wider values in full).
  mutating func padded(_ value: Int64, _ width: Int) {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    if digits < width { bytes.append(contentsOf: repeatElement(0x30, count: width - digits)) }
    unsigned(UInt64(value))
  }

  /// Appends a JSON string literal (quotes and backslashes escaped; the demo writes no control bytes).
  mutating func json(_ value: String) {
    bytes.append(0x22)
    for b in value.utf8 {
      if b == 0x22 || b == 0x5C { bytes.append(0x5C) }
      bytes.append(b)
    }
    bytes.append(0x22)
  }

  /// Appends a CSV field, quoted per RFC 4180 when it holds a comma, quote or line break.
  mutating func csv(_ value: String) {
    let needsQuotes = value.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    guard needsQuotes else {
      bytes.append(contentsOf: value.utf8)
      return
    }
    bytes.append(0x22)
    for b in value.utf8 {
      if b == 0x22 { bytes.append(0x22) }
      bytes.append(b)
    }
    bytes.append(0x22)
  }

  /// Appends `YYYY-MM-DD` (UTC) of an instant.
  mutating func date(_ instant: Instant) {
    let (days, _) = instant.ms.floorDivided(by: Instant.msPerDay)
    let date = CivilDate(daysSinceEpoch: days)
    padded(Int64(date.year), 4)
    bytes.append(0x2D)
    padded(Int64(date.month), 2)
    bytes.append(0x2D)
    padded(Int64(date.day), 2)
  }

  /// Appends ISO 8601 UTC with milliseconds: `2026-11-29T10:00:00.000Z`.
  mutating func iso(_ instant: Instant) {
    let (_, msOfDay) = instant.ms.floorDivided(by: Instant.msPerDay)
    date(instant)
    bytes.append(0x54)
    padded(msOfDay / 3_600_000, 2)
    bytes.append(0x3A)
    padded(msOfDay / 60_000 % 60, 2)
    bytes.append(0x3A)
    padded(msOfDay / 1000 % 60, 2)
    bytes.append(0x2E)
    padded(msOfDay % 1000, 3)
    bytes.append(0x5A)
  }

  /// Appends an RFC 3339 timestamp of `instant` in the local time of `offsetMinutes` east of UTC: `T`
  /// or (PostgreSQL's text form) a space between date and time; the milliseconds unless they are 0 and
  /// `fraction` is `.auto`, trailing zeros dropped with `.trimmed`; `Z` for UTC when `zulu`, else
  /// `+hh:mm` (`+hh` when `shortOffset` and the minutes are 0).
  mutating func iso(
    _ instant: Instant, offsetMinutes: Int, space: Bool, fraction: DemoFraction, zulu: Bool,
    shortOffset: Bool
  ) {
    let local = instant.adding(ms: Int64(offsetMinutes) * 60_000)
    let (_, msOfDay) = local.ms.floorDivided(by: Instant.msPerDay)
    date(local)
    bytes.append(space ? 0x20 : 0x54)
    padded(msOfDay / 3_600_000, 2)
    bytes.append(0x3A)
    padded(msOfDay / 60_000 % 60, 2)
    bytes.append(0x3A)
    padded(msOfDay / 1000 % 60, 2)
    var ms = msOfDay % 1000
    if fraction == .always || ms != 0 {
      bytes.append(0x2E)
      var width = 3
      while fraction == .trimmed && width > 1 && ms % 10 == 0 {
        ms /= 10
        width -= 1
      }
      padded(ms, width)
    }
    if zulu && offsetMinutes == 0 {
      bytes.append(0x5A)
      return
    }
    bytes.append(offsetMinutes < 0 ? 0x2D : 0x2B)
    padded(Int64(abs(offsetMinutes) / 60), 2)
    guard !(shortOffset && offsetMinutes % 60 == 0) else { return }
    bytes.append(0x3A)
    padded(Int64(abs(offsetMinutes) % 60), 2)
  }

  /// Appends an optional ISO timestamp; nothing (an empty CSV cell) for `nil`.
  mutating func iso(_ instant: Instant?) {
    if let instant { iso(instant) }
  }
}
