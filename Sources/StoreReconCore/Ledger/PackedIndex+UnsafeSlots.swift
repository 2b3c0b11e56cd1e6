// Safety: every slot read or written is at `hash & mask`, then `(i + 1) & mask`, within a buffer over
// the map's own slots borrowed for the call; `mask` is the slot count − 1 (a power of two), which the
// door of each operation checks (debug and release), so no index leaves the buffer. A look-up of a map
// with no slots returns before it borrows any; an insertion grows the map first.

extension PackedIndex {
  /// The number stored for `key`.
  @inline(__always)
  subscript(key: PackedID) -> UInt32? {
    guard count > 0 else { return nil }
    return slots.withUnsafeBufferPointer { s -> UInt32? in
      precondition(s.count == mask &+ 1, "PackedIndex: the mask does not fit the slots")
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
    return slots.withUnsafeBufferPointer { s in
      precondition(s.count == mask &+ 1, "PackedIndex: the mask does not fit the slots")
      return s[PackedIndex.hash(key) & mask].payload
    }
  }

  /// Stores `number` for `key` when the key is absent or `replaces` says so of the number it holds.
  @inline(__always)
  mutating func set(_ key: PackedID, _ number: UInt32, replacing replaces: (UInt32) -> Bool) {
    if (count + 1) * 2 > slots.count { resize(to: max(16, slots.count * 2)) }
    let m = mask
    slots.withUnsafeMutableBufferPointer { s in
      precondition(s.count == m &+ 1, "PackedIndex: the mask does not fit the slots")
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
      precondition(s.count == m &+ 1, "PackedIndex: the mask does not fit the slots")
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
  @inline(__always)
  mutating func set(_ key: PackedID, _ number: UInt32) {
    set(key, number, replacing: { _ in true })
  }

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
}
