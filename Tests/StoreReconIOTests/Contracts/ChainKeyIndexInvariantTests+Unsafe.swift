import Testing

@testable import StoreReconCore

extension Contracts {
  /// ``ChainKeyIndex`` keeps the ``LinearProbing`` invariants over chains of realistic keys (a later
  /// chain wins a repeated key; chains left out stay out), and its checker notices a broken index.
  @Suite struct ChainKeyIndexInvariantTests {
    /// `keys.count` Play and Stripe chains keyed by `keys` (interned in `pool`), in that order.
    static func chains(_ keys: [String], pool: TextPool) -> AlignedChains {
      AlignedChains(count: keys.count) { chains in
        for (i, text) in keys.enumerated() {
          chains[i] = ChainState(
            key: PackedID.intern(text, in: pool), startOffset: 0, purchaseCount: 0, refundCount: 0,
            voidCount: 0,
            status: -1, currentProduct: UInt32.max, supersededBy: -1, accountToken: 0,
            store: i % 5 == 0 ? .stripe : .play, flags: [], paidThrough: PackedRecord.none,
            originalPurchaseAt: PackedRecord.none)
        }
      }
    }

    static func index(_ table: AlignedChains, include: (ChainState) -> Bool) -> ChainKeyIndex {
      table.withUnsafeBufferPointer { ChainKeyIndex($0, include: include) }
    }

    @Test(arguments: [1, 9, 100, 5000]) func indexesOfEverySizeKeepTheirInvariants(size: Int) {
      let seed: UInt64 = 0x5EED_0100 + UInt64(size)
      var keys = ContractKeys(seed: seed)
      var texts = keys.mixed(size)
      texts += texts.prefix(size / 10)  // repeated keys: the later chain is the one found
      let pool = TextPool()
      let table = Self.chains(texts, pool: pool)
      for store in [Store.play, .stripe] {
        let include = { (chain: ChainState) in chain.store == store }
        let index = Self.index(table, include: include)
        let problems = index.checkInvariants(chains: table, include: include)
        #expect(problems.isEmpty, "seed \(seed), \(store): \(problems.prefix(5))")
        var last: [PackedID: Int] = [:]
        for i in table.indices where include(table[i]) { last[table[i].key] = i }
        #expect(last.allSatisfy { index.find($0.key, in: table) == $0.value }, "seed \(seed), \(store)")
      }
      #expect(ChainKeyIndex().checkInvariants(chains: table) { _ in false }.isEmpty)
    }

    @Test func checkerCatchesABrokenIndex() throws {
      let seed: UInt64 = 0x5EED_0200
      var keys = ContractKeys(seed: seed)
      let pool = TextPool()
      let table = Self.chains(keys.mixed(400), pool: pool)
      let all = { (_: ChainState) in true }
      let index = Self.index(table, include: all)
      try #require(index.checkInvariants(chains: table, include: all).isEmpty, "seed \(seed)")
      let (key, next, far) = try #require(
        Contracts.HashTableInvariantTests.targets(index.occupancy), "seed \(seed)")

      var twice = index
      twice.corruptSlot(next, copying: key)
      let duplicate = twice.checkInvariants(chains: table, include: all)
      #expect(duplicate.contains { $0.contains("stored twice, in slots \(key) and \(next)") }, "\(duplicate)")

      var moved = index
      moved.corruptSlot(far, copying: key)
      moved.corruptSlot(key, copying: nil)
      let misplaced = moved.checkInvariants(chains: table, include: all)
      #expect(
        misplaced.contains { $0.contains("slot \(far) (") && $0.contains("is misplaced") }, "\(misplaced)")

      let play = index.checkInvariants(chains: table) { $0.store == .play }
      #expect(play.contains { $0.contains("which the index leaves out") }, "\(play.prefix(3))")
    }
  }
}
