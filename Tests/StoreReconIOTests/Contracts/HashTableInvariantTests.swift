import Testing

@testable import StoreReconCore
@testable import StoreReconIO

extension Contracts {
  /// Contracts as code: every open-addressing table keeps its invariants (``LinearProbing``) while it
  /// grows from realistic keys, and each checker notices a table broken on purpose — so these tests can fail.
  @Suite struct HashTableInvariantTests {
    static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002]

    /// Whether a table of `n` keys is just before, at or just after a doubling (where the checks run).
    static func nearGrowth(_ n: Int) -> Bool {
      [n - 1, n, n + 1].contains { $0 > 0 && $0 & ($0 - 1) == 0 }
    }

    /// Where to break a healthy table of this occupancy: a key whose next slot is empty (copy it there: a
    /// key stored twice), and an empty slot after an empty slot (move a key there: away from its probe).
    static func targets(_ occupancy: [Bool]) -> (key: Int, next: Int, far: Int)? {
      let n = occupancy.count
      guard let key = occupancy.indices.first(where: { occupancy[$0] && !occupancy[($0 + 1) % n] }),
        let far = occupancy.indices.first(where: { !occupancy[$0] && !occupancy[($0 + n - 1) % n] })
      else { return nil }
      return (key, (key + 1) % n, far)
    }

    @Test(arguments: seeds) func packedIndexKeepsItsInvariantsWhileItGrows(seed: UInt64) {
      var keys = ContractKeys(seed: seed)
      let pool = TextPool()
      var map = PackedIndex()
      var expected: [PackedID: UInt32] = [:]
      var checks = 0
      for (n, text) in keys.mixed(30_000).enumerated() {
        let id = PackedID.intern(text, in: pool)
        let number = UInt32(n)
        let before = map.count
        switch n % 3 {
        case 0:
          map.set(id, number)
          expected[id] = number
        case 1:
          map.insertIfAbsent(id, number)
          expected[id] = expected[id] ?? number
        default:
          map.set(id, number) { $0 > number }  // never: earlier numbers are smaller
          expected[id] = expected[id] ?? number
        }
        if map.count != before && Self.nearGrowth(map.count) {
          let problems = map.checkInvariants()
          #expect(problems.isEmpty, "seed \(seed), \(map.count) keys: \(problems.prefix(5))")
          checks += 1
        }
      }
      #expect(checks > 20, "seed \(seed)")
      #expect(map.count == expected.count, "seed \(seed)")
      #expect(expected.filter { map[$0.key] != $0.value }.isEmpty, "seed \(seed)")
      for (key, number) in expected { map.insertIfAbsent(key, number &+ 1) }  // all present: nothing added
      #expect(map.count == expected.count, "seed \(seed)")
      #expect(map.checkInvariants().isEmpty, "seed \(seed)")

      var sized = PackedIndex(capacity: 5000)
      for (key, number) in expected.prefix(5000) { sized.set(key, number) }
      #expect(sized.checkInvariants().isEmpty, "seed \(seed)")
    }

    @Test func packedIndexCheckerCatchesABrokenMap() throws {
      let seed: UInt64 = 0x5EED_0003
      var keys = ContractKeys(seed: seed)
      let pool = TextPool()
      var map = PackedIndex()
      for (n, text) in keys.mixed(300).enumerated() { map.set(PackedID.intern(text, in: pool), UInt32(n)) }
      try #require(map.checkInvariants().isEmpty, "seed \(seed)")
      let (key, next, far) = try #require(Self.targets(map.occupancy), "seed \(seed)")

      var twice = map
      twice.corruptSlot(next, copying: key)
      let duplicate = twice.checkInvariants()
      #expect(duplicate.contains { $0.contains("stored twice, in slots \(key) and \(next)") }, "\(duplicate)")
      #expect(
        duplicate.contains { $0.contains("occupied slots but \(map.count) keys counted") }, "\(duplicate)")

      var moved = map
      moved.corruptSlot(far, copying: key)
      moved.corruptSlot(key, copying: nil)
      let misplaced = moved.checkInvariants()
      #expect(
        misplaced.contains { $0.contains("slot \(far) (") && $0.contains("is misplaced") }, "\(misplaced)")

      var lost = map
      lost.corruptSlot(key, copying: nil)
      #expect(lost.checkInvariants().contains { $0.contains("occupied slots but") })
    }

    @Test(arguments: seeds) func textPoolKeepsItsInvariantsWhileItGrows(seed: UInt64) {
      var keys = ContractKeys(seed: seed)
      let texts = keys.mixed(40_000) + ["", "é", "e\u{301}", "GPA.1234-5678-9012-34567..0"]
      let pool = TextPool()
      var ids: [UInt32] = []
      for text in texts {
        let before = pool.count
        ids.append(pool.intern(text))
        if pool.count != before && Self.nearGrowth(pool.count) {
          let problems = pool.checkInvariants()
          #expect(problems.isEmpty, "seed \(seed), \(pool.count) texts: \(problems.prefix(5))")
        }
      }
      let count = pool.count
      #expect(count == Set(texts.map { Array($0.utf8) }).count - 1, "seed \(seed)")  // é and e + ◌́ are one
      #expect(texts.map { pool.intern($0) } == ids, "seed \(seed)")
      #expect(pool.count == count, "seed \(seed)")
      let problems = pool.checkInvariants()
      #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
    }

    @Test func textPoolCheckerCatchesABrokenIndex() throws {
      let seed: UInt64 = 0x5EED_0004
      var keys = ContractKeys(seed: seed)
      let texts = keys.mixed(500)
      func pool() -> TextPool {
        let pool = TextPool()
        for text in texts { _ = pool.intern(text) }
        return pool
      }
      let healthy = pool()
      try #require(healthy.checkInvariants().isEmpty, "seed \(seed)")
      let (key, next, far) = try #require(Self.targets(healthy.occupancy), "seed \(seed)")

      let twice = pool()
      twice.corruptSlot(next, copying: key)
      let duplicate = twice.checkInvariants()
      #expect(duplicate.contains { $0.contains("stored twice, in slots \(key) and \(next)") }, "\(duplicate)")

      let moved = pool()
      moved.corruptSlot(far, copying: key)
      moved.corruptSlot(key, copying: nil)
      let misplaced = moved.checkInvariants()
      #expect(
        misplaced.contains { $0.contains("slot \(far) (") && $0.contains("is misplaced") }, "\(misplaced)")
      #expect(misplaced.contains { $0.contains("does not answer") }, "\(misplaced)")
    }

    @Test(arguments: seeds) func productTableKeepsItsInvariants(seed: UInt64) {
      var keys = ContractKeys(seed: seed)
      let table = ProductNames()
      let types = ["Auto-Renewable Subscription", "subscription", "Non-Consumable", "inapp", ""]
      var variants: [UInt32] = []
      for k in 0..<3000 {
        let name = k % 5 == 0 ? "com.acme.pro.monthly" : "com.acme.\(keys.uuid())"
        let store = Store.allCases[k % Store.allCases.count]
        variants.append(table.variant(store: store, productId: name, typeRaw: types[k % types.count]))
      }
      let problems = table.checkInvariants()
      #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
      #expect(table.variants.count == Set(variants).count, "seed \(seed)")

      let other = ProductNames()
      _ = other.variant(store: .play, productId: "pro:monthly", typeRaw: "subscription")
      _ = table.numbers(of: other)
      #expect(table.checkInvariants().isEmpty, "seed \(seed)")
    }

    @Test(arguments: seeds) func stringInternerKeepsItsInvariants(seed: UInt64) throws {
      var keys = ContractKeys(seed: seed)
      let texts = keys.mixed(20_000) + ["", "pro:monthly", "PURCHASED"]
      let interner = StringInterner()
      for text in texts + texts {
        var text = text
        let got = text.withUTF8 { interner.intern($0) }
        #expect(got == text, "seed \(seed)")
      }
      let problems = interner.checkInvariants()
      #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")

      interner.file(try #require(texts.first))
      #expect(interner.checkInvariants().contains { $0.contains("is kept twice") }, "seed \(seed)")
      let misfiled = StringInterner()
      misfiled.file("pro:monthly", under: 42)
      #expect(misfiled.checkInvariants() == [#"StringInterner: "pro:monthly" is in the bucket of 42"#])
    }

    /// A ledger of realistic chains in every store: its key pool, product table, chain indexes and Play
    /// first-order index all keep their invariants, and every key finds its chain.
    @Test(arguments: seeds) func aBuiltLedgerKeepsItsInvariants(seed: UInt64) throws {
      var keys = ContractKeys(seed: seed)
      let builder = LedgerBuilder()
      let t = try #require(Instant.parseISO8601("2026-11-30T00:00:00Z"))
      let eur = try #require(Currency.named("EUR"))
      var named: [(Store, String)] = []
      for k in 0..<6000 {
        let at = Instant(ms: t.ms - Int64(1 + k % 300) * Instant.msPerDay)
        switch k % 3 {
        case 0:
          let original = keys.appleId()
          named.append((.appStore, original))
          for renewal in 0..<(1 + k % 3) {
            var r = StoreTransaction(
              store: .appStore, kind: .purchase, chainKey: original,
              transactionId: renewal == 0 ? original : keys.appleId(), productId: "com.acme.pro.monthly",
              at: Instant(ms: at.ms + Int64(renewal) * 30 * Instant.msPerDay),
              origin: Origin(file: 0, line: Int32(k)))
            r.amountMinor = 499
            r.currency = eur
            r.accountToken = keys.uuid()
            builder.add(r)
          }
        case 1:
          let token = keys.playToken()
          let order = keys.playOrder()
          named.append((.play, token))
          named.append((.play, order))
          var status = StoreTransaction(
            store: .play, kind: .status, chainKey: token, transactionId: token, productId: "pro:monthly",
            at: at,
            origin: Origin(file: 1, line: Int32(k)))
          status.purchaseToken = token
          status.orderBaseIds = [order]
          status.latestOrderId = order + "..\(k % 4)"
          status.expiresAt = Instant(ms: at.ms + 30 * Instant.msPerDay)
          builder.add(status)
          for renewal in [nil] + (0..<(k % 4)).map(Optional.some) {
            var charge = StoreTransaction(
              store: .play, kind: .purchase, chainKey: order,
              transactionId: renewal.map { order + "..\($0)" } ?? order,
              productId: "pro:monthly", at: at, origin: Origin(file: 2, line: Int32(k)))
            charge.orderBaseIds = [order]
            charge.amountMinor = 499
            charge.currency = eur
            builder.add(charge)
          }
        default:
          let id = k % 2 == 0 ? keys.stripeId() : keys.longNumber()
          named.append((.stripe, id))
          var r = StoreTransaction(
            store: .stripe, kind: .purchase, chainKey: id, transactionId: keys.stripeId(),
            productId: "com.acme.pro.yearly", at: at, origin: Origin(file: 3, line: Int32(k)))
          r.amountMinor = 4999
          r.currency = eur
          builder.add(r)
        }
      }
      let ledger = builder.build(asOf: t, catalog: Catalog())
      let problems = ledger.storage.checkInvariants()
      #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
      let missing = named.filter { ledger.chainIndex(store: $0.0, key: $0.1) == nil }
      #expect(missing.isEmpty, "seed \(seed): \(missing.prefix(5))")
      ledger.release()
      #expect(ledger.storage.checkInvariants().isEmpty, "seed \(seed)")
    }

    /// The checker itself, on a table of plain slots (`nil` empty, else the key, whose home is key & mask).
    @Test func linearProbingFlagsEachBrokenRule() {
      func problems(_ slots: [Int?], count: Int, mask: Int? = nil) -> [String] {
        LinearProbing.problems(
          LinearProbing.Table(
            name: "T", slotCount: slots.count, mask: mask ?? slots.count - 1, count: count, minimumSlots: 4,
            occupied: { slots[$0] != nil }, home: { (slots[$0] ?? 0) & (slots.count - 1) },
            same: { slots[$0] == slots[$1] }, found: { _ in true }, describe: { "key \(slots[$0] ?? -1)" }))
      }
      #expect(problems([], count: 0).isEmpty)
      #expect(problems([nil, 1, 9, nil, nil, nil, nil, nil], count: 2).isEmpty)  // 9 probed on from 1
      #expect(problems([], count: 1) == ["T: no slots but 1 keys counted"])
      #expect(problems([nil, nil, nil, nil, nil, nil], count: 0) == ["T: 6 slots is not a power of two"])
      #expect(problems([nil, nil], count: 0) == ["T: 2 slots, below 4"])
      #expect(problems([nil, nil, nil, nil], count: 0, mask: 7) == ["T: mask 7 for 4 slots"])
      #expect(problems([nil, 1, nil, nil], count: 2) == ["T: 1 occupied slots but 2 keys counted"])
      #expect(problems([0, 1, 2, nil], count: 3) == ["T: 3 keys in 4 slots, over the load bound of 1/2"])
      #expect(
        problems([nil, 1, nil, 9, nil, nil, nil, nil], count: 2) == [
          "T: slot 3 (key 9) is misplaced: empty slot 2 between its home 1 and it, so a look-up stops before it"
        ])
      #expect(
        problems([nil, 1, 1, nil, nil, nil, nil, nil], count: 2) == [
          "T: key 1 is stored twice, in slots 1 and 2"
        ])
    }
  }
}
