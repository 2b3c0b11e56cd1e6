import StoreReconCore

/// Renders `experiment_lineage.csv` from the readouts' packed lineage rows, byte for byte as
/// ``CSVWriter`` would: rows are formatted into a 64 KiB block (numbers and instants as digits, ids as
/// the bytes they are kept in, no `String` and no allocation per row) that is appended to the file's
/// bytes whenever it fills; the file's bytes are reserved up front from a sample of the rows.
struct LineageCSV {
  private var out: [UInt8]
  private let block: UnsafeMutablePointer<UInt8>
  private var used = 0
  /// The text of recent days by day number (a cache: `dayKeys[slot]` is the day whose text is there).
  private typealias DayText = (UInt64, UInt16)
  private var dayKeys = [Int64](repeating: Int64.min, count: LineageCSV.dayCacheSize)
  private var dayTexts = [DayText](repeating: (0, 0), count: LineageCSV.dayCacheSize)
  private static let dayCacheSize = 1024
  private static let blockSize = 1 << 16
  /// Room for every fixed-width part of a row: store, renewal, instant, currency, three amounts,
  /// commas and the line end.
  private static let fixedRoom = 160

  /// `experiment_lineage.csv` for `readouts`, with `header`.
  static func render(_ readouts: [Readout], header: [String]) -> [UInt8] {
    var writer = LineageCSV(start: CSVWriter(header: header).bytes, expected: estimate(readouts))
    for readout in readouts { writer.write(readout.lineage.storage) }
    return writer.finish()
  }

  private init(start: [UInt8], expected: Int) {
    out = start
    out.reserveCapacity(start.count + expected)
    block = UnsafeMutablePointer<UInt8>.allocate(capacity: LineageCSV.blockSize)
  }

  private mutating func finish() -> [UInt8] {
    flush()
    block.deallocate()
    return out
  }

  /// The file's size from about 1 row in 64 formatted in full, with 2 % to spare.
  private static func estimate(_ readouts: [Readout]) -> Int {
    var sampledRows = 0
    var sampledBytes = 0
    var rows = 0
    var probe = LineageCSV(start: [], expected: 0)
    for readout in readouts {
      let s = readout.lineage.storage
      let prepared = Prepared(s)
      let pool = s.pool
      rows += s.count
      prepared.bytes.withUnsafeBufferPointer { fixed in
        s.users.withUnsafeBufferPointer { users in
          for position in stride(from: 0, to: s.count, by: 64) {
            probe.row(s.item(position), users, pool, prepared, fixed)
            sampledRows += 1
            sampledBytes += probe.used + probe.out.count
            probe.used = 0
            probe.out.removeAll(keepingCapacity: true)
          }
        }
      }
    }
    _ = probe.finish()
    guard sampledRows > 0 else { return 0 }
    return rows * sampledBytes / sampledRows * 102 / 100 + 4096
  }

  /// The bytes every row of one readout shares.
  /// The bytes every row of one readout shares, in one block: each field already quoted where it needs
  /// it, found by its range.
  private struct Prepared {
    private(set) var bytes: [UInt8] = []
    private(set) var experiment: Range<Int> = 0..<0
    private(set) var arms: [Range<Int>] = []
    private(set) var stores: [Range<Int>] = []
    private(set) var currencies: [Range<Int>] = []

    init(_ s: LineageRows.Storage) {
      experiment = add(s.experimentId)
      arms = s.armIds.map { add($0) }
      stores = Store.allCases.map { add($0.rawValue) }
      currencies = Currency.all.map { add($0.code) }
    }

    private mutating func add(_ text: String) -> Range<Int> {
      let from = bytes.count
      bytes += LineageCSV.quoted(Array(text.utf8))
      return from..<bytes.count
    }
  }

  /// A field as ``CSVWriter`` writes it: quoted (quotes doubled) when it holds a comma, quote, CR or LF.
  static func quoted(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
      return bytes
    }
    var q: [UInt8] = [0x22]
    for b in bytes {
      if b == 0x22 { q.append(0x22) }
      q.append(b)
    }
    q.append(0x22)
    return q
  }

  private mutating func write(_ s: LineageRows.Storage) {
    let prepared = Prepared(s)
    let pool = s.pool
    prepared.bytes.withUnsafeBufferPointer { fixed in
      s.users.withUnsafeBufferPointer { users in
        for segment in s.segments {
          for item in segment.buffer { row(item, users, pool, prepared, fixed) }
        }
      }
    }
  }

  @inline(__always)
  private mutating func row(
    _ item: LineageRows.Item, _ users: UnsafeBufferPointer<String>, _ pool: TextPool, _ p: Prepared,
    _ fixed: UnsafeBufferPointer<UInt8>
  ) {
    raw(UnsafeBufferPointer(rebasing: fixed[p.experiment]))
    comma()
    raw(UnsafeBufferPointer(rebasing: fixed[p.arms[Int(item.arm)]]))
    comma()
    var user = users[Int(item.user)]
    user.withUTF8 { field($0) }
    comma()
    raw(UnsafeBufferPointer(rebasing: fixed[p.stores[LedgerStorage.slot(LineageRows.store(item.store))]]))
    comma()
    id(item.chain, pool)
    comma()
    id(item.transaction, pool)
    ensure(LineageCSV.fixedRoom)
    comma()
    integer(Int64(item.renewal))
    comma()
    instant(item.charged)
    comma()
    raw(UnsafeBufferPointer(rebasing: fixed[p.currencies[Int(item.currency)]]))
    ensure(LineageCSV.fixedRoom)
    comma()
    integer(item.gross)
    comma()
    integer(item.proceeds)
    comma()
    if item.reporting != Int64.min { integer(item.reporting) }
    block[used] = 0x0A
    used += 1
  }

  // MARK: - Bytes

  private mutating func flush() {
    guard used > 0 else { return }
    out.append(contentsOf: UnsafeBufferPointer(start: block, count: used))
    used = 0
  }

  @inline(__always)
  private mutating func ensure(_ n: Int) {
    if used + n > LineageCSV.blockSize { flush() }
  }

  @inline(__always)
  private mutating func comma() {
    ensure(1)
    block[used] = 0x2C
    used += 1
  }

  /// Bytes as they are.
  @inline(__always)
  private mutating func bytes(_ b: [UInt8]) {
    b.withUnsafeBufferPointer { raw($0) }
  }

  @inline(__always)
  private mutating func raw(_ b: UnsafeBufferPointer<UInt8>) {
    guard let base = b.baseAddress, b.count > 0 else { return }
    if b.count > LineageCSV.blockSize / 2 {
      flush()
      out.append(contentsOf: b)
      return
    }
    ensure(b.count)
    (block + used).update(from: base, count: b.count)
    used += b.count
  }

  /// A text field, quoted where ``CSVWriter`` quotes.
  @inline(__always)
  private mutating func field(_ b: UnsafeBufferPointer<UInt8>) {
    var plain = true
    for c in b where c == 0x2C || c == 0x22 || c == 0x0A || c == 0x0D {
      plain = false
      break
    }
    if plain { return raw(b) }
    bytes(LineageCSV.quoted(Array(b)))
  }

  /// A packed id's text: digits and Play order ids straight from their numbers, other ids from the pool.
  @inline(__always)
  private mutating func id(_ id: PackedID, _ pool: TextPool) {
    switch id.kind {
    case .decimal:
      // Exactly `n` digits (leading zeros kept), as ``PackedID/writePacked(into:)`` writes them.
      let n = Int(id.meta & 0x3FFF_FFFF)
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

  /// A decimal integer (room for 20 bytes ensured by the caller).
  @inline(__always)
  private mutating func integer(_ value: Int64) {
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
    LineageCSV.pairs.withUnsafeBufferPointer { pairs in
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

  /// The last `width` digits of `value`, leading zeros kept, at `at`.
  @inline(__always)
  private func padded(_ value: UInt64, _ width: Int, at: Int) {
    var v = value
    var end = at + width
    LineageCSV.pairs.withUnsafeBufferPointer { pairs in
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

  /// `width` digits of `value` (0 ≤ value < 10^width) at `at`.
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

  /// An instant as ``Instant/description`` writes it (`2026-09-10T10:00:00.000Z`).
  @inline(__always)
  private mutating func instant(_ ms: Int64) {
    // 0001-01-01 … 9999-12-31: written directly; anything else through the description.
    guard ms >= -62_135_596_800_000 && ms < 253_402_300_800_000 else {
      var text = Instant(ms: ms).description
      return text.withUTF8 { field($0) }
    }
    let (days, msOfDay) = ms.floorDivided(by: Instant.msPerDay)
    let m = Int(msOfDay)
    let at = used
    // `YYYY-MM-DD` of recent days, kept as bytes.
    let slot = Int(truncatingIfNeeded: days) & (LineageCSV.dayCacheSize - 1)
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
