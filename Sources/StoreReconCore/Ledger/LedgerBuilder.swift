import StoreReconPlatform

/// Collects imported store records into purchase chains. Feed it every record (``add(_:)``, or packed
/// batches with ``merge(_:)``), then ``build(asOf:catalog:)``.
///
/// Play records arrive keyed by purchase token (subscription resources, most voided records) or by
/// first order id (sales rows); `build` merges an order-keyed chain into the token-keyed chain whose
/// resource (or voided record) names that order, so each Play purchase is one chain.
package final class LedgerBuilder {
  private var storage = LedgerStorage()
  /// Per record: its chain (builder numbering); while the build groups the records, its slot (chain
  /// position × 3 + kind).
  private var recordChain = GrowableBuffer<UInt32>()
  /// Per record: its kind bits (purchase 0, refund 1, void 2), so that grouping reads no records.
  private var recordKind = GrowableBuffer<UInt8>()
  /// Per chain (builder numbering): everything the builder tracks, in one place (one cache line).
  private var chains: [BuilderChain] = []
  private var maps: [PackedIndex] = Array(repeating: PackedIndex(), count: 4)
  /// The order-keyed Play chains, in builder order.
  private var orderChains: [UInt32] = []
  /// First order ids each chain names (besides its own key).
  private var bases: [(chain: UInt32, base: PackedID)] = []
  /// Keeps what the build's prefetching reads (so that the reads are not optimized away).
  private var prefetchSink: UInt32 = 0
  /// Records added one by one, merged before the next batch or the build.
  private var pending = RecordBatch()

  /// Creates an empty builder.
  package init() { AllocatorTuning.apply() }

  /// An empty entitlement table sharing this builder's key pool and product names (no text look-ups later).
  package func entitlementTable() -> EntitlementTable {
    EntitlementTable(pool: storage.pool, products: storage.products)
  }

  /// An empty credential table sharing this builder's key pool.
  package func credentialTable() -> CredentialTable { CredentialTable(pool: storage.pool) }

  /// Adds one record to its chain.
  package func add(_ record: StoreTransaction) {
    pending.add(record)
    if pending.records.count + pending.statuses.count >= 4096 { flushPending() }
  }

  private func flushPending() {
    guard !pending.isEmpty else { return }
    let batch = pending
    pending = RecordBatch()
    mergeBatch(batch)
  }

  /// Set by the importer benchmark: batches are dropped instead of merged (to time importers alone).
  package var discardsBatches = false

  /// Adds a batch's records, after every record added before.
  package func merge(_ batch: RecordBatch) {
    if discardsBatches { return }
    flushPending()
    mergeBatch(batch)
  }

  @inline(__always)
  private func chain(_ key: PackedID, _ space: RecordBatch.Space) -> UInt32 {
    let s = Int(space.rawValue)
    let next = UInt32(truncatingIfNeeded: chains.count)
    let found = maps[s].insertIfAbsent(key, next)
    if found == next {
      chains.append(BuilderChain(key: key, space: space))
      if space == .playOrder { orderChains.append(next) }
    }
    return found
  }

  private func mergeBatch(_ batch: RecordBatch) {
    let pool = storage.pool
    let variants = storage.products.numbers(of: batch.products)
    var textMap = [UInt32](repeating: UInt32.max, count: batch.texts.count)
    var tokenMap = [UInt32](repeating: 0, count: batch.tokens.count)
    func global(_ id: PackedID) -> PackedID {
      guard id.kind == .pooled else { return id }
      let local = Int(id.poolID)
      if textMap[local] == UInt32.max {
        textMap[local] = batch.texts.withBytes(id.poolID) { pool.intern($0) }
      }
      return .pooled(textMap[local])
    }
    func globalToken(_ token: UInt32) -> UInt32 {
      guard token != 0 else { return 0 }
      let local = Int(token - 1)
      if tokenMap[local] == 0 {
        tokenMap[local] = batch.tokens.withBytes(token - 1) { storage.tokens.add($0) } + 1
      }
      return tokenMap[local]
    }

    let base = storage.records.count
    storage.records.reserve(base + batch.records.count)
    recordChain.reserve(base + batch.records.count)
    recordKind.reserve(base + batch.records.count)
    var lastKey = PackedID.absent
    var lastSpace = RecordBatch.Space.appStore
    var lastChain: UInt32 = 0
    var explicit = batch.recordBases.makeIterator()
    var nextExplicit = explicit.next()
    var touched: UInt32 = 0
    batch.records.withUnsafeBufferPointer { records in
      for i in 0..<records.count {
        if i & 15 == 0 { touched &+= touchChains(batch, i..<min(i + 16, records.count)) }
        var r = records[i]
        r.variant = variants[Int(r.variant)]
        if r.tx.isPooled { r.tx = CompactID(pooled: global(.pooled(r.tx.poolNumber)).poolID) }
        let key = batch.keys[i]
        let space = batch.spaces[i]
        let c: UInt32
        if key == lastKey && space == lastSpace {
          c = lastChain
        } else {
          c = chain(global(key), space)
          lastKey = key
          lastSpace = space
          lastChain = c
        }
        if r.flags.contains(.rare), let fields = batch.rare[i] { storage.rare[base + i] = fields }
        while let (record, orderBase) = nextExplicit, record == i {
          bases.append((c, global(orderBase)))
          nextExplicit = explicit.next()
        }
        if space == .playToken || space == .playOrder { noteImplicitBase(r.transactionId, chain: c) }
        storage.records.append(r)
        recordChain.append(c)
        recordKind.append(UInt8(truncatingIfNeeded: r.flags.rawValue & 3))
        if r.flags.rawValue & 3 == 0 {
          let n = UInt32(truncatingIfNeeded: base + i)
          let chain = Int(c)
          let token = batch.tokenNumbers[i]
          chains.withUnsafeMutableBufferPointer { all in
            if all[chain].firstPurchase == UInt32.max
              || precedes(n, r.at, all[chain].firstPurchase, all[chain].firstAt)
            {
              all[chain].firstPurchase = n
              all[chain].firstAt = r.at
              all[chain].firstOriginal = batch.originals[i]
            }
            if token != 0
              && (all[chain].firstTokenPurchase == UInt32.max
                || precedes(n, r.at, all[chain].firstTokenPurchase, all[chain].firstTokenAt))
            {
              all[chain].firstTokenPurchase = n
              all[chain].firstTokenAt = r.at
              all[chain].firstToken = globalToken(token)
            }
          }
        }
      }
    }

    prefetchSink &+= touched

    var statusBases = batch.statusBases.makeIterator()
    var nextBase = statusBases.next()
    for (i, incoming) in batch.statuses.enumerated() {
      var s = incoming
      s.variant = variants[Int(s.variant)]
      s.latestOrder = global(s.latestOrder)
      s.linked = global(s.linked)
      s.token = globalToken(s.token)
      let c = chain(global(batch.statusKeys[i]), batch.statusSpaces[i])
      keepStatus(s, chain: Int(c))
      while let (status, orderBase) = nextBase, status == i {
        bases.append((c, global(orderBase)))
        nextBase = statusBases.next()
      }
    }
  }

  /// Merges order-keyed chain `c` into token chain `t` (its first purchases, token and resource).
  private func link(_ c: Int, into t: UInt32, target: inout [UInt32]) {
    target[c] = t
    let absorbed = chains[c]

    let into = Int(t)
    if absorbed.selfBase { bases.append((t, absorbed.key)) }
    if absorbed.firstPurchase != UInt32.max
      && (chains[into].firstPurchase == UInt32.max
        || precedes(
          absorbed.firstPurchase, absorbed.firstAt, chains[into].firstPurchase, chains[into].firstAt))
    {
      chains[into].firstPurchase = absorbed.firstPurchase
      chains[into].firstAt = absorbed.firstAt
      chains[into].firstOriginal = absorbed.firstOriginal
    }
    if absorbed.firstTokenPurchase != UInt32.max
      && (chains[into].firstTokenPurchase == UInt32.max
        || precedes(
          absorbed.firstTokenPurchase, absorbed.firstTokenAt, chains[into].firstTokenPurchase,
          chains[into].firstTokenAt))
    {
      chains[into].firstTokenPurchase = absorbed.firstTokenPurchase
      chains[into].firstTokenAt = absorbed.firstTokenAt
      chains[into].firstToken = absorbed.firstToken
    }
    if absorbed.status >= 0 {
      let s = storage.statuses[Int(absorbed.status)]
      chains[c].status = -1
      keepStatus(s, chain: into)
    }
  }

  /// Reads ahead what merging records `range` of `batch` will look up (the map slots of their chain
  /// keys, then the chains already known), in tight loops whose cache misses overlap; returns a number
  /// that depends on what was read. Keys that need the text pool are left to the merge.
  private func touchChains(_ batch: RecordBatch, _ range: Range<Int>) -> UInt32 {
    var touched: UInt32 = 0
    for j in range where batch.keys[j].kind != .pooled && (j == 0 || batch.keys[j] != batch.keys[j - 1]) {
      touched &+= maps[Int(batch.spaces[j].rawValue)].touch(batch.keys[j])
    }
    for j in range where batch.keys[j].kind != .pooled && (j == 0 || batch.keys[j] != batch.keys[j - 1]) {
      if let c = maps[Int(batch.spaces[j].rawValue)][batch.keys[j]] {
        touched &+= chains[Int(c)].firstPurchase
      }
    }
    return touched
  }

  /// Whether record `a` (at `atA`) comes before record `b` (at `atB`) in purchase order.
  @inline(__always)
  private func precedes(_ a: UInt32, _ atA: Int64, _ b: UInt32, _ atB: Int64) -> Bool {
    if atA != atB { return atA < atB }
    return ChainDerivation.purchaseLess(a, b, storage.records.buffer, storage.pool)
  }

  /// A Play sales row or voided purchase names its own order's first order id.
  @inline(__always)
  private func noteImplicitBase(_ transactionId: PackedID, chain c: UInt32) {
    let orderBase: PackedID
    switch transactionId.kind {
    case .playOrder:
      orderBase = transactionId.playBase
    case .pooled:
      let text = storage.pool.string(transactionId.poolID)
      guard PlayOrderId.isOrderId(text) else { return }
      orderBase = PackedID.intern(PlayOrderId.base(text), in: storage.pool)
    case .decimal, .empty:
      return
    }
    if chains[Int(c)].space == .playOrder && chains[Int(c)].key == orderBase {
      chains[Int(c)].selfBase = true
    } else {
      bases.append((c, orderBase))
    }
  }

  /// Two resources for one token: keep the one that says more recent things (ties: the later one).
  private func keepStatus(_ s: StatusRecord, chain c: Int) {
    let current = chains[c].status
    if current >= 0 {
      let kept = storage.statuses[Int(current)]
      let keptEnd = kept.expires == PackedRecord.none ? Instant.distantPast.ms : kept.expires
      let newEnd = s.expires == PackedRecord.none ? Instant.distantPast.ms : s.expires
      if keptEnd > newEnd { return }
      storage.statuses[Int(current)] = s
    } else {
      chains[c].status = Int32(truncatingIfNeeded: storage.statuses.count)
      storage.statuses.append(s)
    }
  }

  /// Merges Play chains, derives every chain's state as of `asOf`, and returns the ledger.
  package func build(asOf: Instant, catalog: Catalog) -> Ledger {
    flushPending()
    maps = []  // every record is in: chains are found by number from here on
    let pool = storage.pool
    storage.products.resolve(catalog: catalog)
    let n = chains.count

    // Link order-keyed Play chains to the token chain that names their first order (the least token).
    // (In blocks: each block's map slots, then its chains, are read in one go, so the misses overlap.)
    var tokenOfOrder = PackedIndex(capacity: bases.count)
    var sink: UInt32 = 0
    let block = 16
    for from in stride(from: 0, to: bases.count, by: block) {
      let to = min(from + block, bases.count)
      for k in from..<to { sink &+= tokenOfOrder.touch(bases[k].base) }
      for k in from..<to where chains[Int(bases[k].chain)].space == .playToken {
        let (c, orderBase) = bases[k]
        tokenOfOrder.set(orderBase, c) { PackedID.less(chains[Int(c)].key, chains[Int($0)].key, pool: pool) }
      }
    }
    var target = [UInt32](unsafeUninitializedCapacity: n) { target, initialized in
      for c in 0..<n { (target.baseAddress.unsafelyUnwrapped + c).initialize(to: UInt32(c)) }
      initialized = n
    }
    var found = [UInt32](repeating: UInt32.max, count: block)
    let orders = orderChains
    orderChains = []
    for from in stride(from: 0, to: orders.count, by: block) {
      let to = min(from + block, orders.count)
      for k in from..<to { sink &+= tokenOfOrder.touch(chains[Int(orders[k])].key) }
      for k in from..<to {
        found[k - from] = tokenOfOrder[chains[Int(orders[k])].key] ?? UInt32.max
        if found[k - from] != UInt32.max { sink &+= chains[Int(found[k - from])].firstPurchase }
      }
      for k in from..<to where found[k - from] != UInt32.max {
        link(Int(orders[k]), into: found[k - from], target: &target)
      }
    }
    prefetchSink = sink
    tokenOfOrder = PackedIndex()

    // Sort the live chains by store, then key (as Swift orders the keys' texts), then namespace and
    // arrival. Each entry carries its key's first 16 bytes, big-endian, so most comparisons are two
    // integer comparisons; longer or non-ASCII keys fall back to comparing the texts.
    // Each core sorts the live chains of its part of the builder numbering; the sorted parts are merged.
    // Entries are made on all cores into one block per part and store (the first sort key); the blocks
    // (big ones halved) are sorted on all cores, then each store's blocks are merged.
    let sortParts = Parallel.parts(for: n, minimum: 200_000)
    let blocks = Parallel.map(parts: sortParts) { part -> [UnsafeMutableBufferPointer<ChainSortEntry>] in
      let range = Parallel.range(part, of: sortParts, count: n)
      // Room for the whole part in each store's block: only the pages written are ever touched.
      let room = (0..<ChainSortEntry.ranks).map { _ in
        UnsafeMutablePointer<ChainSortEntry>.allocate(capacity: max(1, range.count))
      }
      var counts = [Int](repeating: 0, count: ChainSortEntry.ranks)
      target.withUnsafeBufferPointer { target in
        chains.withUnsafeBufferPointer { chains in
          for c in range where target[c] == UInt32(c) {
            let entry = ChainSortEntry(
              key: chains[c].key, space: chains[c].space, chain: UInt32(c), pool: pool)
            let rank = Int(entry.rank)
            (room[rank] + counts[rank]).initialize(to: entry)
            counts[rank] += 1
          }
        }
      }
      return (0..<ChainSortEntry.ranks).map { UnsafeMutableBufferPointer(start: room[$0], count: counts[$0]) }
    }
    var runs: [[UnsafeMutableBufferPointer<ChainSortEntry>]] = Array(
      repeating: [], count: ChainSortEntry.ranks)
    for part in blocks {
      for (rank, block) in part.enumerated() where !block.isEmpty {
        if block.count >= 100_000 {
          let half = block.count / 2
          runs[rank].append(UnsafeMutableBufferPointer(rebasing: block[..<half]))
          runs[rank].append(UnsafeMutableBufferPointer(rebasing: block[half...]))
        } else {
          runs[rank].append(block)
        }
      }
    }
    let allRuns = runs.flatMap { $0 }
    if !allRuns.isEmpty {
      _ = Parallel.map(parts: allRuns.count) { i in
        var run = allRuns[i]
        run.sort { ChainSortEntry.less($0, $1, pool: pool) }
      }
    }
    var live: [UInt32] = []
    live.reserveCapacity(n)
    for rank in 0..<ChainSortEntry.ranks { ChainSortEntry.merge(runs[rank], into: &live, pool: pool) }
    for part in blocks {
      for block in part { block.baseAddress.map { $0.deallocate() } }
    }
    var position = [UInt32](repeating: 0, count: n)
    for (p, c) in live.enumerated() { position[Int(c)] = UInt32(p) }
    for c in 0..<n where target[c] != UInt32(c) { position[c] = position[Int(target[c])] }
    target = []

    // Group record numbers by chain, then kind (purchases, refunds, voids), in arrival order.
    let chainCount = live.count
    let slotCount = chainCount * 3
    let recordCount = storage.records.count
    // Counted and placed on all cores: each part counts its records per slot (chain × kind); a part's
    // records of a slot follow the earlier parts' there, so each slot keeps arrival order.
    let groupParts = Parallel.parts(for: recordCount, minimum: 500_000)
    var fills = Parallel.map(parts: groupParts) { part -> [UInt32] in
      var counts = [UInt32](repeating: 0, count: slotCount)
      position.withUnsafeBufferPointer { position in
        counts.withUnsafeMutableBufferPointer { counts in
          for i in Parallel.range(part, of: groupParts, count: recordCount) {
            let slot = position[Int(recordChain[i])] &* 3 &+ UInt32(recordKind[i])
            recordChain[i] = slot
            counts[Int(slot)] += 1
          }
        }
      }
      return counts
    }
    var starts = [UInt32](repeating: 0, count: slotCount + 1)
    do {
      var total: UInt32 = 0
      for slot in 0..<slotCount {
        starts[slot] = total
        for k in 0..<groupParts {
          let count = fills[k][slot]
          fills[k][slot] = total
          total += count
        }
      }
      starts[slotCount] = total
    }
    storage.order = [UInt32](unsafeUninitializedCapacity: recordCount) { order, initialized in
      fills.withUnsafeMutableBufferPointer { fills in
        _ = Parallel.map(parts: groupParts) { part in
          fills[part].withUnsafeMutableBufferPointer { fill in
            for i in Parallel.range(part, of: groupParts, count: recordCount) {
              let slot = Int(recordChain[i])
              order[Int(fill[slot])] = UInt32(truncatingIfNeeded: i)
              fill[slot] += 1
            }
          }
        }
      }
      initialized = recordCount
    }
    fills = []
    recordChain.removeAll()
    recordKind.removeAll()

    let t = asOf.ms
    let stateParts = Parallel.parts(for: chainCount, minimum: 200_000)
    // Each part also lists its chains whose own key is one of their first order ids.
    var selfNamed: [[(chain: UInt32, base: PackedID)]] = []
    storage.chains = ChainTable(count: chainCount) { states in
      chains.withUnsafeBufferPointer { chains in
        selfNamed = Parallel.map(parts: stateParts) { part -> [(chain: UInt32, base: PackedID)] in
          var selfBases: [(chain: UInt32, base: PackedID)] = []
          for p in Parallel.range(part, of: stateParts, count: chainCount) {
            let chain = chains[Int(live[p])]
            if chain.selfBase { selfBases.append((UInt32(p), chain.key)) }
            // The first purchase as of T: the first of all purchases, unless even that one is after T.
            var original = PackedRecord.none
            if chain.firstPurchase != UInt32.max, chain.firstAt <= t {
              original = chain.firstOriginal == PackedRecord.none ? chain.firstAt : chain.firstOriginal
            }
            let token =
              chain.firstTokenPurchase != UInt32.max && chain.firstTokenAt <= t ? chain.firstToken : 0
            (states.baseAddress.unsafelyUnwrapped + p).initialize(
              to: ChainState(
                key: chain.key, startOffset: starts[p * 3], purchaseCount: starts[p * 3 + 1] - starts[p * 3],
                refundCount: starts[p * 3 + 2] - starts[p * 3 + 1],
                voidCount: starts[p * 3 + 3] - starts[p * 3 + 2],
                status: chain.status, currentProduct: UInt32.max, supersededBy: -1, accountToken: token,
                store: chain.space.store, flags: [.production], paidThrough: PackedRecord.none,
                originalPurchaseAt: original))
          }
          return selfBases
        }
      }
    }
    starts = []

    // First order ids each chain names: its own key where its records name it, and the ids it names.
    // (Which chain wins an id does not depend on this order: see the first order ids below.)
    let baseCount = bases.count
    let selfCount = selfNamed.reduce(0) { $0 + $1.count }
    let nameParts = Parallel.parts(for: baseCount, minimum: 200_000)
    var named = [(chain: UInt32, base: PackedID)](unsafeUninitializedCapacity: baseCount + selfCount) {
      named, initialized in
      bases.withUnsafeBufferPointer { bases in
        position.withUnsafeBufferPointer { position in
          _ = Parallel.map(parts: nameParts) { part in
            for i in Parallel.range(part, of: nameParts, count: baseCount) {
              (named.baseAddress.unsafelyUnwrapped + i).initialize(
                to: (position[Int(bases[i].chain)], bases[i].base))
            }
          }
        }
      }
      var i = baseCount
      for part in selfNamed {
        for entry in part {
          (named.baseAddress.unsafelyUnwrapped + i).initialize(to: entry)
          i += 1
        }
      }
      initialized = baseCount + selfCount
    }
    bases = []
    selfNamed = []
    chains = []
    live = []
    position = []

    // Derive each chain as of T; drop chains none of whose records is at or before T (in place).
    let empty = ChainDerivation.deriveAll(storage, asOf: asOf)
    // Chain positions after the drop (-1: dropped); empty when no chain is dropped (nothing moves).
    var kept: [Int32] = []
    var w = chainCount
    if empty > 0 {
      kept = [Int32](repeating: -1, count: chainCount)
      w = 0
      for p in 0..<chainCount where !storage.chains[p].isEmpty {
        kept[p] = Int32(truncatingIfNeeded: w)
        if w != p { storage.chains[w] = storage.chains[p] }
        w += 1
      }
      storage.chains.removeLast(chainCount - w)
      var revocations: [Int32: Chain.Revocation] = [:]
      for (p, revocation) in storage.revocations where kept[Int(p)] >= 0 {
        revocations[kept[Int(p)]] = revocation
      }
      storage.revocations = revocations
    }

    // Look-ups: chain keys per store (a later chain wins a tie), Play first order ids (the first chain wins).
    // The App Store index on one core; the Play and Stripe indexes and the first order ids on the other.
    let keyed = storage.chains.withUnsafeBufferPointer { chains in
      Parallel.map(parts: 2) { part -> ([ChainKeyIndex], PackedIndex, UInt32) in
        guard part == 1 else {
          return ([ChainKeyIndex(chains, include: { $0.store == .appStore })], PackedIndex(), 0)
        }
        let indexes = [
          ChainKeyIndex(chains, include: { $0.store == .play }),
          ChainKeyIndex(chains, include: { $0.store == .stripe }),
        ]
        var playOrders = PackedIndex(capacity: named.count)
        var touched: UInt32 = 0
        for from in stride(from: 0, to: named.count, by: 16) {
          let to = min(from + 16, named.count)
          for i in from..<to { touched &+= playOrders.touch(named[i].base) }
          for i in from..<to {
            let (chain, base) = named[i]
            let k = kept.isEmpty ? Int32(bitPattern: chain) : kept[Int(chain)]
            guard k >= 0 else { continue }
            playOrders.set(base, UInt32(k)) { Int32($0) > k }
          }
        }
        return (indexes, playOrders, touched)
      }
    }
    storage.index = keyed[0].0 + keyed[1].0
    storage.playOrders = keyed[1].1
    prefetchSink &+= keyed[1].2
    named = []
    kept = []
    // A Play chain named by another chain's linkedPurchaseToken is superseded by it.
    for i in storage.chains.indices where storage.chains[i].store == .play {
      let chain = storage.chains[i]
      guard chain.status >= 0, !chain.pending else { continue }
      let s = storage.statuses[Int(chain.status)]
      guard !s.linked.isAbsent, s.at <= asOf.ms, let t = storage.chainIndex(store: .play, key: s.linked),
        t != i
      else { continue }
      storage.chains[t].supersededBy = Int32(truncatingIfNeeded: i)
    }
    let built = storage
    storage = LedgerStorage()
    return Ledger(storage: built, asOf: asOf)
  }
}

/// A live chain while the builder sorts them: store rank, the key's first 16 bytes as two big-endian
/// words (zero-padded, so a shorter text orders first on a common prefix), and flags for keys the words
/// do not decide.
struct ChainSortEntry {
  var high: UInt64
  var low: UInt64
  package var key: PackedID
  var chain: UInt32
  var rank: UInt8
  var space: UInt8
  var flags: UInt8

  /// The key is longer than 16 bytes or holds a NUL byte (equal words do not mean equal keys).
  static let long: UInt8 = 1
  /// The key has non-ASCII bytes (Swift orders it by Unicode rules, not bytes).
  static let nonASCII: UInt8 = 2

  /// Store rank, then key (as Swift orders the texts), then namespace, then builder number.
  @inline(__always)
  static func less(_ a: ChainSortEntry, _ b: ChainSortEntry, pool: TextPool) -> Bool {
    if a.rank != b.rank { return a.rank < b.rank }
    if (a.flags | b.flags) & ChainSortEntry.nonASCII == 0 {
      if a.high != b.high { return a.high < b.high }
      if a.low != b.low { return a.low < b.low }
      if (a.flags | b.flags) & ChainSortEntry.long != 0 {
        let order = PackedID.compare(a.key, b.key, pool: pool)
        if order != 0 { return order < 0 }
      }
    } else {
      let order = PackedID.compare(a.key, b.key, pool: pool)
      if order != 0 { return order < 0 }
    }
    if a.space != b.space { return a.space < b.space }
    return a.chain < b.chain
  }

  /// How many store ranks there are.
  static let ranks = 3

  /// Appends the chains of sorted `runs` to `out` in order (the order is total: no two entries are
  /// equal, so the result does not depend on how the entries were split into runs). Runs that follow
  /// one another are copied; others are merged.
  static func merge(
    _ runs: [UnsafeMutableBufferPointer<ChainSortEntry>], into out: inout [UInt32], pool: TextPool
  ) {
    var runs = runs.filter { !$0.isEmpty }
    var inOrder = true
    for k in runs.indices.dropFirst() where less(runs[k][0], runs[k - 1][runs[k - 1].count - 1], pool: pool) {
      inOrder = false
      break
    }
    if inOrder {
      for run in runs {
        for entry in run { out.append(entry.chain) }
      }
      return
    }
    // k-way merge: each step takes the least head.
    var heads = [Int](repeating: 0, count: runs.count)
    while !runs.isEmpty {
      var best = 0
      for k in 1..<runs.count where less(runs[k][heads[k]], runs[best][heads[best]], pool: pool) { best = k }
      out.append(runs[best][heads[best]].chain)
      heads[best] += 1
      if heads[best] == runs[best].count {
        runs.remove(at: best)
        heads.remove(at: best)
      }
    }
  }

  init(key: PackedID, space: RecordBatch.Space, chain: UInt32, pool: TextPool) {
    self.key = key
    self.chain = chain
    self.space = space.rawValue
    let store = space.store
    rank = store == .appStore ? 0 : (store == .play ? 1 : 2)
    if key.kind == .decimal {
      // Digits only: the first 16 as two big-endian words, worked out without writing the text.
      let n = Int(key.meta & 0x3FFF_FFFF)
      (high, low) = ChainSortEntry.digitWords(key.value, count: n)
      flags = n > 16 ? ChainSortEntry.long : 0
      return
    }
    var h: UInt64 = 0
    var l: UInt64 = 0
    var f: UInt8 = 0
    key.withBytes(pool: pool) { bytes in
      for (i, b) in bytes.prefix(16).enumerated() {
        if i < 8 {
          h |= UInt64(b) << (56 - 8 * UInt64(i))
        } else {
          l |= UInt64(b) << (56 - 8 * UInt64(i - 8))
        }
      }
      if bytes.count > 16 || bytes.contains(0) { f |= ChainSortEntry.long }
      if !TextPool.allASCII(bytes) { f |= ChainSortEntry.nonASCII }
    }
    high = h
    low = l
    flags = f
  }

  /// The first 16 bytes of the `count`-digit decimal text of `value` (leading zeros included), as two
  /// big-endian words, zero-padded.
  @inline(__always)
  static func digitWords(_ value: UInt64, count n: Int) -> (UInt64, UInt64) {
    var high: UInt64 = 0
    var low: UInt64 = 0
    var v = value
    var i = n
    // Digit `i` (from 0) of the text goes to byte `i` of the 16.
    while i > 0 {
      i -= 1
      let digit = 0x30 | v % 10
      v /= 10
      if i < 8 {
        high |= digit << (56 - 8 * UInt64(i))
      } else if i < 16 {
        low |= digit << (56 - 8 * UInt64(i - 8))
      }
    }
    return (high, low)
  }
}

/// What the builder tracks of one chain while records arrive (56 bytes, one cache line).
struct BuilderChain {
  package var key: PackedID
  /// The kept status (index into the statuses), or -1.
  var status: Int32 = -1
  /// The first purchase in purchase order (record number, or `UInt32.max`), its instant and original
  /// purchase instant; the first purchase carrying an account token, its instant and the token.
  var firstPurchase = UInt32.max
  var firstTokenPurchase = UInt32.max
  var firstAt = PackedRecord.none
  var firstOriginal = PackedRecord.none
  var firstTokenAt = PackedRecord.none
  var firstToken: UInt32 = 0
  var space: RecordBatch.Space
  /// The chain's own key is one of its first order ids (an order-keyed chain whose records name it).
  var selfBase = false

  init(key: PackedID, space: RecordBatch.Space) {
    self.key = key
    self.space = space
  }
}
