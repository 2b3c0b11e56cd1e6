import StoreReconPlatform

/// Numbers distinct texts, keeping their bytes in one growing arena: an open-addressing hash index over
/// the arena finds a text's number without a `String` or a per-text allocation.
///
/// Equal texts get equal numbers. ASCII texts are compared byte for byte; a text with other bytes is
/// looked up by Swift `String` equality (canonical equivalence), as a `[String: …]` dictionary would.
package final class TextPool: @unchecked Sendable {
  private var bytes: [UInt8] = []
  /// `ends[i]` is where text `i` ends in `bytes` (it starts where text `i - 1` ends).
  private var ends: [Int] = []
  /// Per text: 1 when all its bytes are ASCII.
  private var ascii: [Bool] = []
  /// Slots: 0 empty, else `hash32 << 32 | (number + 1)`, where `hash32` (the upper half of the text's
  /// hash) also gives the home slot: growing moves slots without reading any text again.
  private var slots: [UInt64] = []
  private var mask = 0
  private var nonASCII: [String: UInt32] = [:]

  /// Creates an empty pool.
  package init() {}

  /// How many distinct texts the pool holds.
  package var count: Int { ends.count }

  /// Bytes the pool holds, for memory estimates.
  var byteCount: Int { bytes.count }

  /// The number of the text spelled by `text` (UTF-8), adding it when new.
  @inline(__always)
  package func intern(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
    guard TextPool.allASCII(text) else { return internNonASCII(text) }
    let hash = TextPool.hash(text)
    if slots.isEmpty { grow() }
    let tag = hash >> 32
    var i = Int(truncatingIfNeeded: tag) & mask
    while true {
      let slot = slots[i]
      if slot == 0 { break }
      if slot >> 32 == tag {
        let id = UInt32(truncatingIfNeeded: slot) - 1
        if equals(id, text) { return id }
      }
      i = (i + 1) & mask
    }
    let id = append(text, ascii: true)
    slots[i] = tag << 32 | UInt64(id + 1)
    if ends.count * 2 > slots.count { grow() }
    return id
  }

  /// The number of `text` if the pool holds it.
  func find(_ text: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard TextPool.allASCII(text) else {
      return nonASCII[String(decoding: text, as: UTF8.self)]
    }
    guard !slots.isEmpty else { return nil }
    let hash = TextPool.hash(text)
    let tag = hash >> 32
    var i = Int(truncatingIfNeeded: tag) & mask
    while true {
      let slot = slots[i]
      if slot == 0 { return nil }
      if slot >> 32 == tag {
        let id = UInt32(truncatingIfNeeded: slot) - 1
        if equals(id, text) { return id }
      }
      i = (i + 1) & mask
    }
  }

  /// The number of `text`, adding it when new.
  func intern(_ text: String) -> UInt32 {
    var text = text
    return text.withUTF8 { intern($0) }
  }

  /// Calls `body` with the bytes of text `id`.
  @inline(__always)
  package func withBytes<R>(_ id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let i = Int(id)
    let start = i == 0 ? 0 : ends[i - 1]
    let end = ends[i]
    return bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[start..<end])) }
  }

  /// Text `id` as a `String`.
  func string(_ id: UInt32) -> String { withBytes(id) { String(decoding: $0, as: UTF8.self) } }

  /// Whether text `id` is all ASCII.
  @inline(__always) func isASCII(_ id: UInt32) -> Bool { ascii[Int(id)] }

  private func internNonASCII(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let key = String(decoding: text, as: UTF8.self)
    if let id = nonASCII[key] { return id }
    let id = append(text, ascii: false)
    nonASCII[key] = id
    return id
  }

  private func append(_ text: UnsafeBufferPointer<UInt8>, ascii isASCII: Bool) -> UInt32 {
    bytes.append(contentsOf: text)
    ends.append(bytes.count)
    ascii.append(isASCII)
    return UInt32(truncatingIfNeeded: ends.count - 1)
  }

  @inline(__always)
  private func equals(_ id: UInt32, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let i = Int(id)
    let start = i == 0 ? 0 : ends[i - 1]
    let end = ends[i]
    guard end - start == text.count else { return false }
    guard let p = text.baseAddress, text.count > 0 else { return true }
    return bytes.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return false }
      return Memory.memcmp(base + start, p, text.count) == 0
    }
  }

  private func grow() {
    let capacity = max(64, slots.count * 2)
    var fresh = [UInt64](repeating: 0, count: capacity)
    let m = capacity - 1
    fresh.withUnsafeMutableBufferPointer { fresh in
      for slot in slots where slot != 0 {
        var i = Int(truncatingIfNeeded: slot >> 32) & m
        while fresh[i] != 0 { i = (i + 1) & m }
        fresh[i] = slot
      }
    }
    slots = fresh
    mask = m
  }

  @inline(__always)
  static func allASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var any: UInt8 = 0
    for b in text { any |= b }
    return any < 0x80
  }

  /// A fast 64-bit hash of a byte string (word-at-a-time multiply-xorshift).
  @inline(__always)
  static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = text.count
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
    guard let base = text.baseAddress else { return mix(h) }
    let p = UnsafeRawPointer(base)
    var i = 0
    while i + 8 <= n {
      h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      h ^= h >> 29
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < n {
      tail |= UInt64(base[i]) << shift
      shift += 8
      i += 1
    }
    return mix(h ^ tail)
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
  private func equals(_ a: UInt32, _ b: UInt32) -> Bool {
    withBytes(b) { equals(a, $0) }
  }

  /// Per slot of the hash index, whether it holds a text (for tests of ``checkInvariants()``).
  var occupancy: [Bool] { slots.map { $0 != 0 } }

  /// Breaks the pool on purpose, for tests of ``checkInvariants()``: slot `i` of the hash index becomes a
  /// copy of slot `from`, or empty when `from` is `nil`.
  func corruptSlot(_ i: Int, copying from: Int?) { slots[i] = from.map { slots[$0] } ?? 0 }
}
