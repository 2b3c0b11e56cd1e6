import StoreReconCore

/// How the realistic world renders its lines (``DemoOptions/realistic``): the forms real writers
/// produce, drawn from a generator stream of their own, so that a form never changes what a line says.
final class DemoStyle {
  /// The generator of the forms.
  var rng: DemoRandom

  /// Offsets (minutes east of UTC) an app database's session time zone can have.
  private static let offsets = [60, 120, 330, -300, -420, -480, 540, 600]

  /// Creates the style of the world generated from `seed`.
  init(seed: UInt64) { rng = DemoRandom(seed: seed, stream: 0x5171_E000_0000_0000) }

  /// Appends an app-row timestamp the way app databases export them: ISO 8601 UTC with or without
  /// milliseconds, PostgreSQL's text form (`2026-11-29 10:00:00.12+00`, sometimes in a session zone)
  /// or ISO 8601 with a local offset.
  func appTimestamp(_ instant: Instant, into line: inout DemoLine) {
    switch rng.weighted([450, 300, 250]) {
    case 0:
      line.iso(
        instant, offsetMinutes: 0, space: false, fraction: rng.chance(500) ? .always : .auto, zulu: true,
        shortOffset: false)
    case 1:
      line.iso(
        instant, offsetMinutes: rng.chance(800) ? 0 : rng.pick(DemoStyle.offsets), space: true,
        fraction: .trimmed, zulu: false, shortOffset: true)
    default:
      line.iso(
        instant, offsetMinutes: rng.pick(DemoStyle.offsets), space: false, fraction: .auto, zulu: false,
        shortOffset: false)
    }
  }

  /// Appends an optional app-row timestamp; nothing (an empty CSV cell) for `nil`.
  func appTimestamp(_ instant: Instant?, into line: inout DemoLine) {
    if let instant { appTimestamp(instant, into: &line) }
  }

  /// Appends a Google API timestamp: RFC 3339 in UTC, as protobuf's JSON writes it (no fraction on a
  /// whole second, else the milliseconds).
  func playTimestamp(_ instant: Instant, into line: inout DemoLine) {
    line.iso(instant, offsetMinutes: 0, space: false, fraction: .auto, zulu: true, shortOffset: false)
  }

  /// The line as a writer that puts a space after every `:` and `,` between tokens emits it (Python's
  /// `json.dumps` defaults, many loggers); strings are copied as they are.
  static func spaced(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    var inString = false
    var escaped = false
    for b in bytes {
      out.append(b)
      if inString {
        if escaped {
          escaped = false
        } else if b == 0x5C {
          escaped = true
        } else if b == 0x22 {
          inString = false
        }
      } else if b == 0x22 {
        inString = true
      } else if b == 0x3A || b == 0x2C {
        out.append(0x20)
      }
    }
    return out
  }
}
