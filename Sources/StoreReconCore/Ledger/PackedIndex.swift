/// An open-addressing hash map from ``PackedID`` to a 32-bit number (a chain's index), 16 bytes a slot:
/// the look-up structure behind chain keys and Play order ids, without `String` keys.
struct PackedIndex: Sendable {
  private struct Slot {
    var value: UInt64
    var meta: UInt32
    /// 0 empty, else the number + 1.
    var payload: UInt32
  }

  private var slots: [Slot] = []
  private var mask = 0
  /// Entries held.
  private(set) var count = 0

  /// Creates an empty map with room for about `capacity` entries before it grows.
  init(capacity: Int = 0) {
    if capacity > 0 { resize(to: PackedIndex.slotCount(for: capacity)) }
  }

  private static func slotCount(for entries: Int) -> Int {
    var n = 16
    while n < entries * 2 { n *= 2 }
    return n
  }

  @inline(__always)
  private static func hash(_ key: PackedID) -> Int {
    Int(truncatingIfNeeded: TextPool.mix(key.value ^ (UInt64(key.meta) << 32 | UInt64(key.meta))))
  }

  /// The number stored for `key`.
  @inline(__always)
  subscript(key: PackedID) -> UInt32? {
    guard count > 0 else { return nil }
    return slots.withUnsafeBufferPointer { s -> UInt32? in
      var i = PackedIndex.hash(key) & mask
      while true {
        let slot = s[i]
        if slot.payload == 0 { return nil }
        if slot.value == key.value && slot.meta == key.meta { return slot.payload - 1 }
        i = (i + 1) & mask
      }
    }
  }

  /// What the home slot of `key` holds (a number + 1, or 0): read so that a look-up of `key` soon after
  /// finds the slot in the cache. Callers of several in a row let the reads overlap.
  @inline(__always)
  func touch(_ key: PackedID) -> UInt32 {
    guard count > 0 else { return 0 }
    return slots.withUnsafeBufferPointer { $0[PackedIndex.hash(key) & mask].payload }
  }

  /// Stores `number` for `key` when the key is absent or `replaces` says so of the number it holds.
  @inline(__always)
  mutating func set(_ key: PackedID, _ number: UInt32, replacing replaces: (UInt32) -> Bool) {
    if (count + 1) * 2 > slots.count { resize(to: max(16, slots.count * 2)) }
    let m = mask
    slots.withUnsafeMutableBufferPointer { s in
      var i = PackedIndex.hash(key) & m
      while true {
        let slot = s[i]
        if slot.payload == 0 {
          s[i] = Slot(value: key.value, meta: key.meta, payload: number + 1)
          count += 1
          return
        }
        if slot.value == key.value && slot.meta == key.meta {
          if replaces(slot.payload - 1) { s[i].payload = number + 1 }
          return
        }
        i = (i + 1) & m
      }
    }
  }

  /// Stores `number` for `key` unless the key is present; returns the number the map holds for it.
  @discardableResult
  @inline(__always)
  mutating func insertIfAbsent(_ key: PackedID, _ number: UInt32) -> UInt32 {
    if (count + 1) * 2 > slots.count { resize(to: max(16, slots.count * 2)) }
    let m = mask
    return slots.withUnsafeMutableBufferPointer { s -> UInt32 in
      var i = PackedIndex.hash(key) & m
      while true {
        let slot = s[i]
        if slot.payload == 0 {
          s[i] = Slot(value: key.value, meta: key.meta, payload: number + 1)
          count += 1
          return number
        }
        if slot.value == key.value && slot.meta == key.meta { return slot.payload - 1 }
        i = (i + 1) & m
      }
    }
  }

  /// Stores `number` for `key`, replacing any number it had.
  mutating func set(_ key: PackedID, _ number: UInt32) {
    if (count + 1) * 2 > slots.count { resize(to: max(16, slots.count * 2)) }
    let m = mask
    slots.withUnsafeMutableBufferPointer { s in
      var i = PackedIndex.hash(key) & m
      while true {
        let slot = s[i]
        if slot.payload == 0 {
          s[i] = Slot(value: key.value, meta: key.meta, payload: number + 1)
          count += 1
          return
        }
        if slot.value == key.value && slot.meta == key.meta {
          s[i].payload = number + 1
          return
        }
        i = (i + 1) & m
      }
    }
  }

  /// Every entry, in slot order (unspecified but deterministic for the same insertions).
  func forEach(_ body: (PackedID, UInt32) -> Void) {
    for slot in slots where slot.payload != 0 {
      body(PackedID(value: slot.value, meta: slot.meta), slot.payload - 1)
    }
  }

  private mutating func resize(to capacity: Int) {
    let old = slots
    slots = Array(repeating: Slot(value: 0, meta: 0, payload: 0), count: capacity)
    mask = capacity - 1
    count = 0
    for slot in old where slot.payload != 0 {
      insertIfAbsent(PackedID(value: slot.value, meta: slot.meta), slot.payload - 1)
    }
  }
}

extension PackedIndex {
  /// What is wrong with the map (nothing: empty): the slots a power of two (16 at least) at most half
  /// full, as many occupied as ``count`` says, and every key in the slot its probe reaches, found there
  /// by a look-up, stored once (``LinearProbing``). For tests and debugging: it walks every probe.
  func checkInvariants() -> [String] {
    slots.withUnsafeBufferPointer { s in
      LinearProbing.problems(
        LinearProbing.Table(
          name: "PackedIndex", slotCount: s.count, mask: mask, count: count, minimumSlots: 16,
          occupied: { s[$0].payload != 0 },
          home: { PackedIndex.hash(PackedID(value: s[$0].value, meta: s[$0].meta)) & (s.count - 1) },
          same: { s[$0].value == s[$1].value && s[$0].meta == s[$1].meta },
          found: { self[PackedID(value: s[$0].value, meta: s[$0].meta)] == s[$0].payload - 1 },
          describe: { "key \(s[$0].value)/\(s[$0].meta) → \(s[$0].payload - 1)" }))
    }
  }

  /// The bytes one slot takes in memory (16, as the map's summary says; a test holds it to that).
  static var slotStride: Int { MemoryLayout<Slot>.stride }

  /// Per slot, whether it holds a key (for tests of ``checkInvariants()``).
  var occupancy: [Bool] { slots.map { $0.payload != 0 } }

  /// Breaks the map on purpose, for tests of ``checkInvariants()``: slot `i` becomes a copy of slot
  /// `from` (a key stored twice, or a key away from its probe), or empty when `from` is `nil` (a key
  /// lost); ``count`` stays as it was.
  mutating func corruptSlot(_ i: Int, copying from: Int?) {
    slots[i] = from.map { slots[$0] } ?? Slot(value: 0, meta: 0, payload: 0)
  }
}
