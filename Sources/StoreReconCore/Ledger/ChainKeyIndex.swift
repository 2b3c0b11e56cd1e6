/// Chain look-up by key without storing the keys again: an open-addressing table of chain indexes
/// (4 bytes a slot) whose probes compare the key against the chain's own key.
struct ChainKeyIndex: Sendable {
  /// 0 empty, else chain index + 1.
  private var slots: [UInt32] = []
  private var mask = 0

  /// An index of every chain of `chains` that `include` accepts; where two have the same key, the later.
  init(_ chains: UnsafeBufferPointer<ChainState>, include: (ChainState) -> Bool) {
    var count = 0
    for chain in chains where include(chain) { count += 1 }
    guard count > 0 else { return }
    var capacity = 16
    while capacity < count * 2 { capacity *= 2 }
    slots = [UInt32](repeating: 0, count: capacity)
    mask = capacity - 1
    for (i, chain) in chains.enumerated() where include(chain) {
      var s = ChainKeyIndex.hash(chain.key) & mask
      while slots[s] != 0 && chains[Int(slots[s] - 1)].key != chain.key { s = (s + 1) & mask }
      slots[s] = UInt32(i + 1)
    }
  }

  /// An empty index.
  init() {}

  @inline(__always)
  static func hash(_ key: PackedID) -> Int {
    Int(truncatingIfNeeded: TextPool.mix(key.value ^ (UInt64(key.meta) << 32 | UInt64(key.meta))))
  }

  /// Calls `body` with the slots (0 empty, else chain index + 1) and the mask of a slot position; an
  /// empty index has no slots.
  @inline(__always)
  func withSlots<R>(_ body: (UnsafeBufferPointer<UInt32>, Int) -> R) -> R {
    slots.withUnsafeBufferPointer { body($0, mask) }
  }

  /// The index of the chain whose key is `key`.
  @inline(__always)
  func find(_ key: PackedID, in chains: ChainTable) -> Int? {
    guard !slots.isEmpty else { return nil }
    var s = ChainKeyIndex.hash(key) & mask
    while true {
      let slot = slots[s]
      if slot == 0 { return nil }
      if chains[Int(slot - 1)].key == key { return Int(slot - 1) }
      s = (s + 1) & mask
    }
  }
}
