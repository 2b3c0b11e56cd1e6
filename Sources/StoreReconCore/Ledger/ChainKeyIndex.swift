/// Chain look-up by key without storing the keys again: an open-addressing table of chain indexes
/// (4 bytes a slot) whose probes compare the key against the chain's own key.
struct ChainKeyIndex: Sendable {
  /// 0 empty, else chain index + 1.
  private(set) var slots: [UInt32] = []
  private(set) var mask = 0

  /// An index of these `slots` (a power of two of them, 0 empty, else chain index + 1) and the `mask`
  /// of a slot position, as ``init(_:include:)`` fills them.
  init(slots: [UInt32], mask: Int) {
    self.slots = slots
    self.mask = mask
  }

  /// An empty index.
  init() {}

  @inline(__always)
  static func hash(_ key: PackedID) -> Int {
    Int(truncatingIfNeeded: TextPool.mix(key.value ^ (UInt64(key.meta) << 32 | UInt64(key.meta))))
  }

  /// The index of the chain whose key is `key`.
  @inline(__always)
  func find(_ key: PackedID, in chains: AlignedChains) -> Int? {
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

extension ChainKeyIndex {
  /// What is wrong with the index of the chains of `chains` that `include` accepts (nothing: empty):
  /// the slots a power of two (16 at least) at most half full, one occupied slot per distinct key of an
  /// included chain, each holding an included chain — the last with its key — in the slot its probe
  /// reaches, found there by ``find(_:in:)``, stored once (``LinearProbing``). For tests and debugging.
  func checkInvariants(chains: AlignedChains, include: (ChainState) -> Bool) -> [String] {
    var last: [PackedID: Int] = [:]
    for i in chains.indices where include(chains[i]) { last[chains[i].key] = i }
    var problems: [String] = []
    let valid = { (slot: UInt32) in slot != 0 && Int(slot - 1) < chains.count }
    for (i, slot) in slots.enumerated() where slot != 0 {
      guard valid(slot) else {
        problems.append("ChainKeyIndex: slot \(i) names chain \(Int(slot) - 1) of \(chains.count)")
        continue
      }
      let chain = chains[Int(slot - 1)]
      if !include(chain) {
        problems.append("ChainKeyIndex: slot \(i) holds chain \(slot - 1), which the index leaves out")
      } else if last[chain.key] != Int(slot - 1) {
        problems.append(
          "ChainKeyIndex: slot \(i) holds chain \(slot - 1), not the last chain with its key "
            + "(\(last[chain.key].map(String.init) ?? "none"))")
      }
    }
    guard problems.isEmpty else { return problems }
    return LinearProbing.problems(
      LinearProbing.Table(
        name: "ChainKeyIndex", slotCount: slots.count, mask: mask, count: last.count, minimumSlots: 16,
        occupied: { slots[$0] != 0 },
        home: { ChainKeyIndex.hash(chains[Int(slots[$0] - 1)].key) & (slots.count - 1) },
        same: { chains[Int(slots[$0] - 1)].key == chains[Int(slots[$1] - 1)].key },
        found: { find(chains[Int(slots[$0] - 1)].key, in: chains) == Int(slots[$0] - 1) },
        describe: { "chain \(slots[$0] - 1), key \(chains[Int(slots[$0] - 1)].key)" }))
  }

  /// Per slot, whether it holds a chain (for tests of ``checkInvariants(chains:include:)``).
  var occupancy: [Bool] { slots.map { $0 != 0 } }

  /// Breaks the index on purpose, for tests of ``checkInvariants(chains:include:)``: slot `i` becomes a
  /// copy of slot `from`, or empty when `from` is `nil`.
  mutating func corruptSlot(_ i: Int, copying from: Int?) { slots[i] = from.map { slots[$0] } ?? 0 }
}
