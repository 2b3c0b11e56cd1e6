/// An open-addressing hash map from ``PackedID`` to a 32-bit number (a chain's index), 16 bytes a slot:
/// the look-up structure behind chain keys and Play order ids, without `String` keys.
struct PackedIndex: Sendable {
  struct Slot {
    var value: UInt64
    var meta: UInt32
    /// 0 empty, else the number + 1.
    var payload: UInt32
  }

  /// The slots: a power of two, 16 at least, or none (written here and in PackedIndex+UnsafeSlots.swift).
  var slots: [Slot] = []
  /// The slot count − 1 (0 while there are no slots).
  var mask = 0
  /// Entries held.
  var count = 0

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
  static func hash(_ key: PackedID) -> Int {
    Int(truncatingIfNeeded: TextPool.mix(key.value ^ (UInt64(key.meta) << 32 | UInt64(key.meta))))
  }

  /// Every entry, in slot order (unspecified but deterministic for the same insertions).
  func forEach(_ body: (PackedID, UInt32) -> Void) {
    for slot in slots where slot.payload != 0 {
      body(PackedID(value: slot.value, meta: slot.meta), slot.payload - 1)
    }
  }

  mutating func resize(to capacity: Int) {
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
