import StoreReconCore

/// Builds RFC 4180 CSV text in memory: comma-separated, CRLF-free (`\n` line ends), fields quoted only
/// when they hold a comma, quote, CR or LF; a text cell a spreadsheet would run as a formula starts
/// with `'` (``needsFormulaGuard(_:)``). Every CSV it writes is meant for people.
package struct CSVWriter: Sendable {
  /// The bytes written so far.
  package internal(set) var bytes: [UInt8] = []

  /// Starts a piece of a file, without a header row.
  package init() {}

  /// Starts a file with its header row.
  package init(header: [String]) {
    bytes.reserveCapacity(1 << 16)
    row(header)
  }

  /// The bytes written since the last call (or the start), leaving the writer empty: for a file
  /// written in pieces.
  package mutating func takeBytes() -> [UInt8] {
    let taken = bytes
    bytes = []
    bytes.reserveCapacity(taken.count)
    return taken
  }

  /// Appends one row.
  package mutating func row(_ fields: [String]) {
    for (i, field) in fields.enumerated() {
      if i > 0 { bytes.append(0x2C) }
      append(field)
    }
    bytes.append(0x0A)
  }

  private mutating func append(_ field: String) {
    let utf8 = field.utf8
    let needsQuotes = utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    let guarded = CSVWriter.needsFormulaGuard(utf8)
    guard needsQuotes else {
      if guarded { bytes.append(CSVWriter.formulaGuard) }
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(0x22)
    if guarded { bytes.append(CSVWriter.formulaGuard) }
    for b in utf8 {
      if b == 0x22 { bytes.append(0x22) }
      bytes.append(b)
    }
    bytes.append(0x22)
  }

  /// Makes room for `n` more bytes.
  mutating func reserve(_ n: Int) { bytes.reserveCapacity(bytes.count + n) }

  /// Appends an instant field as ``Instant/description`` writes it.
  mutating func field(_ instant: Instant) {
    let ms = instant.ms
    // 0001-01-01 … 9999-12-31: written directly; anything else through the description.
    guard ms >= -62_135_596_800_000 && ms < 253_402_300_800_000 else {
      field(instant.description)
      return
    }
    bytes.append(0x2C)
    let (days, msOfDay) = ms.floorDivided(by: Instant.msPerDay)
    let date = CivilDate(daysSinceEpoch: days)
    @inline(__always) func put(_ value: Int, _ width: Int) {
      var divisor = 1
      for _ in 1..<width { divisor *= 10 }
      var v = value
      while divisor > 0 {
        bytes.append(UInt8(truncatingIfNeeded: v / divisor) &+ 0x30)
        v %= divisor
        divisor /= 10
      }
    }
    put(date.year, 4)
    bytes.append(0x2D)
    put(date.month, 2)
    bytes.append(0x2D)
    put(date.day, 2)
    bytes.append(0x54)
    let m = Int(msOfDay)
    put(m / 3_600_000, 2)
    bytes.append(0x3A)
    put(m / 60_000 % 60, 2)
    bytes.append(0x3A)
    put(m / 1000 % 60, 2)
    bytes.append(0x2E)
    put(m % 1000, 3)
    bytes.append(0x5A)
  }

  /// Ends a row written field by field.
  mutating func endRow() { bytes.append(0x0A) }
}
