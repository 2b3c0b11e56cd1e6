// Safety: the 64 KiB block is owned (allocated in init, freed in deinit; the type is not copyable, so one
// owner); every write first makes room with `ensure(n)` for `n` at most half the block (longer fields go
// straight to the output), so `used + n <= blockSize` holds at each store; `raw(_:_:)` checks its range
// (precondition, debug and release).

import StoreReconCore

/// A file's bytes formatted through a 64 KiB block, as ``CSVWriter`` would write the fields: numbers and
/// instants as digits, ids as the bytes they are kept in, no `String` and no allocation per field. The
/// block is appended to the file's bytes whenever it fills.
///
/// Every write makes room for itself first (`ensure`), so the block never overflows; the pointer code of
/// the block is here, behind these writes.
struct CSVBlock: ~Copyable {
  private var out: [UInt8]
  private let block: UnsafeMutablePointer<UInt8>
  private var used = 0
  /// The text of recent days by day number (a cache: `dayKeys[slot]` is the day whose text is there).
  private typealias DayText = (UInt64, UInt16)
  private var dayKeys = [Int64](repeating: Int64.min, count: CSVBlock.dayCacheSize)
  private var dayTexts = [DayText](repeating: (0, 0), count: CSVBlock.dayCacheSize)
  private static let dayCacheSize = 1024
  private static let blockSize = 1 << 16
  /// The longest decimal integer (`-9223372036854775808`) and instant (`2026-09-10T10:00:00.000Z`).
  private static let integerRoom = 20
  private static let instantRoom = 24

  /// A file that starts with `start`, with room reserved for `expected` more bytes.
  init(start: [UInt8], expected: Int) {
    out = start
    out.reserveCapacity(start.count + expected)
    block = UnsafeMutablePointer<UInt8>.allocate(capacity: CSVBlock.blockSize)
  }

  deinit { block.deallocate() }

  /// The file's bytes.
  consuming func finish() -> [UInt8] {
    flush()
    return out
  }

  /// Bytes formatted so far.
  var count: Int { out.count + used }

  /// The bytes formatted since the last call (or the start), leaving the file empty and the day texts
  /// cached: for a file written in pieces.
  mutating func takeBytes() -> [UInt8] {
    flush()
    let taken = out
    out = []
    out.reserveCapacity(taken.count)
    return taken
  }

  /// Forgets the bytes formatted so far (the day texts stay cached).
  mutating func removeAll() {
    used = 0
    out.removeAll(keepingCapacity: true)
  }

  private mutating func flush() {
    guard used > 0 else { return }
    out.append(contentsOf: UnsafeBufferPointer(start: block, count: used))
    used = 0
  }

  /// Makes room for `n` bytes in the block (`n` at most half the block).
  @inline(__always)
  private mutating func ensure(_ n: Int) {
    if used + n > CSVBlock.blockSize { flush() }
  }

  @inline(__always)
  private mutating func byte(_ b: UInt8) {
    ensure(1)
    block[used] = b
    used += 1
  }

  /// A comma, between fields.
  @inline(__always)
  mutating func comma() { byte(0x2C) }

  /// The line end, after a row's last field.
  @inline(__always)
  mutating func newline() { byte(0x0A) }

  /// `bytes[range]`, as they are (a field already quoted where it needs it).
  @inline(__always)
  mutating func raw(_ bytes: [UInt8], _ range: Range<Int>) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= bytes.count, "CSVBlock.raw: range out of bounds")
    bytes.withUnsafeBufferPointer { raw(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  @inline(__always)
  private mutating func raw(_ b: UnsafeBufferPointer<UInt8>) {
    guard let base = b.baseAddress, b.count > 0 else { return }
    if b.count > CSVBlock.blockSize / 2 {
      flush()
      out.append(contentsOf: b)
      return
    }
    ensure(b.count)
    (block + used).update(from: base, count: b.count)
    used += b.count
  }

  /// A text field, quoted where ``CSVWriter`` quotes and guarded where it guards formulas.
  @inline(__always)
  mutating func field(_ text: String) {
    var text = text
    text.withUTF8 { field($0) }
  }

  @inline(__always)
  private mutating func field(_ b: UnsafeBufferPointer<UInt8>) {
    var plain = true
    for c in b where c == 0x2C || c == 0x22 || c == 0x0A || c == 0x0D {
      plain = false
      break
    }
    if plain && !CSVWriter.needsFormulaGuard(b) { return raw(b) }
    CSVBlock.quoted(Array(b)).withUnsafeBufferPointer { raw($0) }
  }

  /// A field as ``CSVWriter`` writes it: quoted (quotes doubled) when it holds a comma, quote, CR or LF,
  /// with a leading `'` when a spreadsheet would run it (``CSVWriter/needsFormulaGuard(_:)``).
  static func quoted(_ bytes: [UInt8]) -> [UInt8] {
    let guarded = CSVWriter.needsFormulaGuard(bytes)
    guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
      return guarded ? [CSVWriter.formulaGuard] + bytes : bytes
    }
    var q: [UInt8] = guarded ? [0x22, CSVWriter.formulaGuard] : [0x22]
    for b in bytes {
      if b == 0x22 { q.append(0x22) }
      q.append(b)
    }
    q.append(0x22)
    return q
  }

  /// A packed id's text: digits and Play order ids straight from their numbers, other ids from `pool`
  /// (quoted where ``CSVWriter`` quotes).
  @inline(__always)
  mutating func id(_ id: PackedID, _ pool: TextPool) {
    switch id.kind {
    case .decimal:
      // Exactly `n` digits (leading zeros kept), as ``PackedID/writePacked(into:)`` writes them.
      let n = Int(id.meta & 0x3FFF_FFFF)
      precondition(n <= CSVBlock.blockSize / 2, "CSVBlock.id: a decimal id longer than half the block")
      ensure(n)
      padded(id.value, n, at: used)
      used += n
    case .playOrder:
      ensure(PackedID.maximumPackedLength)
      used += id.writePacked(into: block + used)
    case .pooled:
      pool.withBytes(id.poolID) { field($0) }
    case .empty:
      break
    }
  }

  /// Two-digit pairs `00` … `99`.
  private static let pairs: [UInt8] = {
    var pairs: [UInt8] = []
    for n in 0..<100 {
      pairs.append(UInt8(truncatingIfNeeded: 0x30 + n / 10))
      pairs.append(UInt8(truncatingIfNeeded: 0x30 + n % 10))
    }
    return pairs
  }()

  /// A decimal integer.
  @inline(__always)
  mutating func integer(_ value: Int64) {
    ensure(CSVBlock.integerRoom)
    var v = value.magnitude
    if value < 0 {
      block[used] = 0x2D
      used += 1
    }
    var digits = 1
    var probe = v
    while probe >= 10 {
      probe /= 10
      digits += 1
    }
    var end = used + digits
    used = end
    CSVBlock.pairs.withUnsafeBufferPointer { pairs in
      while v >= 100 {
        let pair = Int(v % 100) * 2
        v /= 100
        end -= 2
        block[end] = pairs[pair]
        block[end + 1] = pairs[pair + 1]
      }
      if v >= 10 {
        let pair = Int(v) * 2
        block[end - 2] = pairs[pair]
        block[end - 1] = pairs[pair + 1]
      } else {
        block[end - 1] = UInt8(truncatingIfNeeded: v) &+ 0x30
      }
    }
  }

  /// The last `width` digits of `value`, leading zeros kept, at `at` (room made by the caller).
  @inline(__always)
  private func padded(_ value: UInt64, _ width: Int, at: Int) {
    var v = value
    var end = at + width
    CSVBlock.pairs.withUnsafeBufferPointer { pairs in
      while end - at >= 2 {
        let pair = Int(v % 100) * 2
        v /= 100
        end -= 2
        block[end] = pairs[pair]
        block[end + 1] = pairs[pair + 1]
      }
      if end > at { block[at] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30 }
    }
  }

  /// `width` digits of `value` (0 ≤ value < 10^width) at `at` (room made by the caller).
  @inline(__always)
  private func digits(_ value: Int, _ width: Int, at: Int) {
    var v = value
    var i = at + width
    while i > at {
      i -= 1
      block[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
      v /= 10
    }
  }

  /// A date as ``CivilDate/description`` writes it (`2026-09-10`).
  @inline(__always)
  mutating func date(_ d: CivilDate) {
    guard d.year >= 0 && d.year <= 9999 && d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 else {
      return field(d.description)
    }
    ensure(10)
    digits(d.year, 4, at: used)
    block[used + 4] = 0x2D
    digits(d.month, 2, at: used + 5)
    block[used + 7] = 0x2D
    digits(d.day, 2, at: used + 8)
    used += 10
  }

  /// A month as ``ReportMonth/description`` writes it (`2026-09`).
  @inline(__always)
  mutating func month(_ m: ReportMonth) {
    let (year, month) = (m.year, m.month)
    guard year >= 0 && year <= 9999 else { return field(m.description) }
    ensure(7)
    digits(year, 4, at: used)
    block[used + 4] = 0x2D
    digits(month, 2, at: used + 5)
    used += 7
  }

  /// An instant as ``Instant/description`` writes it (`2026-09-10T10:00:00.000Z`).
  @inline(__always)
  mutating func instant(_ ms: Int64) {
    // 0001-01-01 … 9999-12-31: written directly; anything else through the description.
    guard ms >= -62_135_596_800_000 && ms < 253_402_300_800_000 else {
      return field(Instant(ms: ms).description)
    }
    ensure(CSVBlock.instantRoom)
    let (days, msOfDay) = ms.floorDivided(by: Instant.msPerDay)
    let m = Int(msOfDay)
    let at = used
    // `YYYY-MM-DD` of recent days, kept as bytes.
    let slot = Int(truncatingIfNeeded: days) & (CSVBlock.dayCacheSize - 1)
    if dayKeys[slot] != days {
      let date = CivilDate(daysSinceEpoch: days)
      digits(date.year, 4, at: at)
      block[at + 4] = 0x2D
      digits(date.month, 2, at: at + 5)
      block[at + 7] = 0x2D
      digits(date.day, 2, at: at + 8)
      dayKeys[slot] = days
      dayTexts[slot] = UnsafeRawPointer(block + at).loadUnaligned(as: DayText.self)
    } else {
      UnsafeMutableRawPointer(block + at).storeBytes(of: dayTexts[slot], as: DayText.self)
    }
    block[at + 10] = 0x54
    digits(m / 3_600_000, 2, at: at + 11)
    block[at + 13] = 0x3A
    digits(m / 60_000 % 60, 2, at: at + 14)
    block[at + 16] = 0x3A
    digits(m / 1000 % 60, 2, at: at + 17)
    block[at + 19] = 0x2E
    digits(m % 1000, 3, at: at + 20)
    block[at + 23] = 0x5A
    used = at + 24
  }
}
