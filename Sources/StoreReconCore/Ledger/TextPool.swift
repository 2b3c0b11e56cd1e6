import StoreReconPlatform

/// Numbers distinct texts, keeping their bytes in one growing arena: an open-addressing hash index over
/// the arena finds a text's number without a `String` or a per-text allocation.
///
/// Equal texts get equal numbers. ASCII texts are compared byte for byte; a text with other bytes is
/// looked up by Swift `String` equality (canonical equivalence), as a `[String: …]` dictionary would.
package final class TextPool: @unchecked Sendable {
  var bytes: [UInt8] = []
  /// `ends[i]` is where text `i` ends in `bytes` (it starts where text `i - 1` ends).
  var ends: [Int] = []
  /// Per text: 1 when all its bytes are ASCII.
  var ascii: [Bool] = []
  /// Slots: 0 empty, else `hash32 << 32 | (number + 1)`, where `hash32` (the upper half of the text's
  /// hash) also gives the home slot: growing moves slots without reading any text again.
  var slots: [UInt64] = []
  var mask = 0
  var nonASCII: [String: UInt32] = [:]

  /// Creates an empty pool.
  package init() {}

  /// How many distinct texts the pool holds.
  package var count: Int { ends.count }

  /// Bytes the pool holds, for memory estimates.
  var byteCount: Int { bytes.count }

  /// The number of `text`, adding it when new.
  func intern(_ text: String) -> UInt32 {
    var text = text
    return text.withUTF8 { intern($0) }
  }

  /// Text `id` as a `String`.
  func string(_ id: UInt32) -> String { withBytes(id) { String(decoding: $0, as: UTF8.self) } }

  /// Whether text `id` is all ASCII.
  @inline(__always) func isASCII(_ id: UInt32) -> Bool { ascii[Int(id)] }

  func grow() {
    let capacity = max(64, slots.count * 2)
    var fresh = [UInt64](repeating: 0, count: capacity)
    let m = capacity - 1
    for slot in slots where slot != 0 {
      var i = Int(truncatingIfNeeded: slot >> 32) & m
      while fresh[i] != 0 { i = (i + 1) & m }
      fresh[i] = slot
    }
    slots = fresh
    mask = m
  }

  @inline(__always)
  static func mix(_ x: UInt64) -> UInt64 {
    var z = x &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    z = z &* 0xBF58_476D_1CE4_E5B9
    z ^= z >> 29
    return z
  }
}

extension TextPool {
  /// What is wrong with the pool (nothing: empty): every ASCII text in one slot of the hash index — a
  /// power of two (64 at least) at most half full — that carries the upper half of its hash, in the slot
  /// its probe reaches, found there by ``find(_:)``, stored once (``LinearProbing``); every other text in
  /// the `String` map under its own number. For tests and debugging: it walks every probe.
  package func checkInvariants() -> [String] {
    var problems: [String] = []
    if ends.count != ascii.count || ends.last.map({ $0 != bytes.count }) ?? !bytes.isEmpty {
      problems.append("TextPool: \(ends.count) texts, \(ascii.count) flags, \(bytes.count) bytes")
    }
    for i in ends.indices.dropFirst() where ends[i] < ends[i - 1] {
      problems.append("TextPool: text \(i) ends at \(ends[i]), before text \(i - 1) ends")
    }
    guard problems.isEmpty else { return problems }
    let idOf = { (slot: UInt64) in UInt32(truncatingIfNeeded: slot) &- 1 }
    for (i, slot) in slots.enumerated() where slot != 0 {
      let id = idOf(slot)
      if Int(id) >= ends.count || !ascii[Int(id)] {
        problems.append("TextPool: slot \(i) names \(Int(id) < ends.count ? "non-ASCII " : "")text \(id)")
      } else if withBytes(id, { TextPool.hash($0) >> 32 }) != slot >> 32 {
        problems.append("TextPool: slot \(i) carries a hash that is not the hash of text \(id)")
      }
    }
    for (text, id) in nonASCII where Int(id) >= ends.count || ascii[Int(id)] || string(id) != text {
      problems.append("TextPool: non-ASCII text \(text.debugDescription) is filed under text \(id)")
    }
    let nonASCIICount = ascii.reduce(0) { $0 + ($1 ? 0 : 1) }
    if nonASCII.count != nonASCIICount {
      problems.append("TextPool: \(nonASCIICount) non-ASCII texts, \(nonASCII.count) in the map")
    }
    guard problems.isEmpty else { return problems }
    return LinearProbing.problems(
      LinearProbing.Table(
        name: "TextPool", slotCount: slots.count, mask: mask, count: ends.count - nonASCIICount,
        minimumSlots: 64, occupied: { self.slots[$0] != 0 },
        home: { Int(truncatingIfNeeded: self.slots[$0] >> 32) & (self.slots.count - 1) },
        same: { self.equals(idOf(self.slots[$0]), idOf(self.slots[$1])) },
        found: { i in self.withBytes(idOf(self.slots[i])) { self.find($0) } == idOf(self.slots[i]) },
        describe: { "text \(idOf(self.slots[$0])) \(self.string(idOf(self.slots[$0])).debugDescription)" }))
  }

  /// Whether texts `a` and `b` have the same bytes.
  func equals(_ a: UInt32, _ b: UInt32) -> Bool {
    withBytes(b) { equals(a, $0) }
  }

  /// Per slot of the hash index, whether it holds a text (for tests of ``checkInvariants()``).
  var occupancy: [Bool] { slots.map { $0 != 0 } }

  /// Breaks the pool on purpose, for tests of ``checkInvariants()``: slot `i` of the hash index becomes a
  /// copy of slot `from`, or empty when `from` is `nil`.
  func corruptSlot(_ i: Int, copying from: Int?) { slots[i] = from.map { slots[$0] } ?? 0 }
}
