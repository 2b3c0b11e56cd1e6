// Safety: the chains buffer is only read, inside `withUnsafeBufferPointer`, for the length of the call,
// and only at indexes below its count (the slots hold chain index + 1 of chains of that buffer); the
// slots buffer handed to `withSlots`' body is the index's own array, read-only, valid for the call. The
// door checks (debug and release) that the table's chain indexes fit a slot (at most 2³² − 2 chains).

extension ChainKeyIndex {
  /// An index of every chain of `chains` that `include` accepts; where two have the same key, the later.
  init(_ chains: AlignedChains, include: (ChainState) -> Bool) {
    self = chains.withUnsafeBufferPointer { ChainKeyIndex($0, include: include) }
  }

  /// An index of every chain of `chains` that `include` accepts; where two have the same key, the later.
  init(_ chains: UnsafeBufferPointer<ChainState>, include: (ChainState) -> Bool) {
    precondition(chains.count < Int(UInt32.max), "ChainKeyIndex: \(chains.count) chains do not fit a slot")
    var count = 0
    for chain in chains where include(chain) { count += 1 }
    guard count > 0 else {
      self.init()
      return
    }
    var capacity = 16
    while capacity < count * 2 { capacity *= 2 }
    var slots = [UInt32](repeating: 0, count: capacity)
    let mask = capacity - 1
    for (i, chain) in chains.enumerated() where include(chain) {
      var s = ChainKeyIndex.hash(chain.key) & mask
      while slots[s] != 0 && chains[Int(slots[s] - 1)].key != chain.key { s = (s + 1) & mask }
      slots[s] = UInt32(i + 1)
    }
    self.init(slots: slots, mask: mask)
  }

  /// Calls `body` with the slots (0 empty, else chain index + 1) and the mask of a slot position; an
  /// empty index has no slots.
  @inline(__always)
  func withSlots<R>(_ body: (UnsafeBufferPointer<UInt32>, Int) -> R) -> R {
    slots.withUnsafeBufferPointer { body($0, mask) }
  }
}
