/// Collects imported store records into purchase chains. Feed it every record (``add(_:)``, or packed
/// batches with ``merge(_:)``), then ``build(asOf:catalog:)``.
///
/// Play records arrive keyed by purchase token (subscription resources, most voided records) or by
/// first order id (sales rows); `build` merges an order-keyed chain into the token-keyed chain whose
/// resource (or voided record) names that order, so each Play purchase is one chain.
public final class LedgerBuilder {
  private var storage = LedgerStorage()
  /// Per record: its chain (builder numbering).
  private var recordChain = GrowableBuffer<UInt32>()
  /// Per chain (builder numbering): everything the builder tracks, in one place (one cache line).
  private var chains: [BuilderChain] = []
  private var maps: [PackedIndex] = Array(repeating: PackedIndex(), count: 4)
  /// First order ids each chain names (besides its own key).
  private var bases: [(chain: UInt32, base: PackedID)] = []
  /// Records added one by one, merged before the next batch or the build.
  private var pending = RecordBatch()

  /// Creates an empty builder.
  public init() { AllocatorTuning.apply() }

  /// An empty entitlement table sharing this builder's key pool and product names (no text look-ups later).
  func entitlementTable() -> EntitlementTable {
    EntitlementTable(pool: storage.pool, products: storage.products)
  }

  /// An empty credential table sharing this builder's key pool.
  func credentialTable() -> CredentialTable { CredentialTable(pool: storage.pool) }

  /// Adds one record to its chain.
  public func add(_ record: StoreTransaction) {
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
  var discardsBatches = false

  /// Adds a batch's records, after every record added before.
  func merge(_ batch: RecordBatch) {
    if discardsBatches { return }
    flushPending()
    mergeBatch(batch)
  }

  @inline(__always)
  private func chain(_ key: PackedID, _ space: RecordBatch.Space) -> UInt32 {
    let s = Int(space.rawValue)
    let next = UInt32(truncatingIfNeeded: chains.count)
    let found = maps[s].insertIfAbsent(key, next)
    if found == next { chains.append(BuilderChain(key: key, space: space)) }
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
    var lastKey = PackedID.absent
    var lastSpace = RecordBatch.Space.appStore
    var lastChain: UInt32 = 0
    var explicit = batch.recordBases.makeIterator()
    var nextExplicit = explicit.next()
    batch.records.withUnsafeBufferPointer { records in
      for i in 0..<records.count {
        var r = records[i]
        r.variant = variants[Int(r.variant)]
        if r.txMeta >> 30 == 3 { r.transactionId = global(r.transactionId) }
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
  public func build(asOf: Instant, catalog: Catalog) -> Ledger {
    flushPending()
    MemDebug.note("build start")
    maps = []  // every record is in: chains are found by number from here on
    let pool = storage.pool
    storage.products.resolve(catalog: catalog)
    let n = chains.count

    // Link order-keyed Play chains to the token chain that names their first order (the least token).
    var tokenOfOrder = PackedIndex()
    for (c, orderBase) in bases where chains[Int(c)].space == .playToken {
      if let current = tokenOfOrder[orderBase] {
        if PackedID.less(chains[Int(c)].key, chains[Int(current)].key, pool: pool) {
          tokenOfOrder.set(orderBase, c)
        }
      } else {
        tokenOfOrder.set(orderBase, c)
      }
    }
    var target = [UInt32](repeating: 0, count: n)
    for c in 0..<n {
      target[c] = UInt32(c)
      guard chains[c].space == .playOrder, let t = tokenOfOrder[chains[c].key] else { continue }
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
    tokenOfOrder = PackedIndex()

    MemDebug.note("linked")
    // Sort the live chains by store, then key (as Swift orders the keys' texts), then namespace and
    // arrival. Each entry carries its key's first 16 bytes, big-endian, so most comparisons are two
    // integer comparisons; longer or non-ASCII keys fall back to comparing the texts.
    var entries: [ChainSortEntry] = []
    entries.reserveCapacity(n)
    for c in 0..<n where target[c] == UInt32(c) {
      entries.append(ChainSortEntry(key: chains[c].key, space: chains[c].space, chain: UInt32(c), pool: pool))
    }
    entries.sort { a, b in
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
    var live = entries.map(\.chain)
    entries = []
    var position = [UInt32](repeating: 0, count: n)
    for (p, c) in live.enumerated() { position[Int(c)] = UInt32(p) }
    for c in 0..<n where target[c] != UInt32(c) { position[c] = position[Int(target[c])] }
    target = []

    MemDebug.note("sorted")
    // Group record numbers by chain, then kind (purchases, refunds, voids), in arrival order.
    let chainCount = live.count
    var starts = [UInt32](repeating: 0, count: chainCount * 3 + 1)
    do {
      let records = storage.records.buffer
      for i in 0..<records.count {
        let slot = Int(position[Int(recordChain[i])]) * 3 + Int(records[i].flags.rawValue & 3)
        starts[slot + 1] += 1
      }
    }
    for s in 0..<chainCount * 3 { starts[s + 1] += starts[s] }
    do {
      var fill = starts
      var order = [UInt32](repeating: 0, count: storage.records.count)
      let records = storage.records.buffer
      for i in 0..<records.count {
        let slot = Int(position[Int(recordChain[i])]) * 3 + Int(records[i].flags.rawValue & 3)
        order[Int(fill[slot])] = UInt32(truncatingIfNeeded: i)
        fill[slot] += 1
      }
      recordChain.removeAll()
      storage.order = order
    }

    var states: [ChainState] = []
    states.reserveCapacity(chainCount)
    let t = asOf.ms
    for (p, c) in live.enumerated() {
      let chain = chains[Int(c)]
      // The first purchase as of T: the first of all purchases, unless even that one is after T.
      var original = PackedRecord.none
      if chain.firstPurchase != UInt32.max, chain.firstAt <= t {
        original = chain.firstOriginal == PackedRecord.none ? chain.firstAt : chain.firstOriginal
      }
      let token = chain.firstTokenPurchase != UInt32.max && chain.firstTokenAt <= t ? chain.firstToken : 0
      states.append(
        ChainState(
          key: chain.key, startOffset: starts[p * 3], purchaseCount: starts[p * 3 + 1] - starts[p * 3],
          refundCount: starts[p * 3 + 2] - starts[p * 3 + 1],
          voidCount: starts[p * 3 + 3] - starts[p * 3 + 2],
          status: chain.status, currentProduct: UInt32.max, supersededBy: -1, accountToken: token,
          latestPaid: -1, paidThrough: PackedRecord.none, originalPurchaseAt: original,
          store: chain.space.store, flags: [.production]))
    }
    starts = []
    storage.chains = states
    states = []

    // First order ids each chain names: its own key where its records name it, and the ids it names.
    var named: [(chain: UInt32, base: PackedID)] = []
    named.reserveCapacity(bases.count)
    for (c, orderBase) in bases { named.append((position[Int(c)], orderBase)) }
    bases = []
    for (p, c) in live.enumerated() where chains[Int(c)].selfBase {
      named.append((UInt32(p), chains[Int(c)].key))
    }
    chains = []
    live = []
    position = []

    MemDebug.note("before derive")
    // Derive each chain as of T; drop chains none of whose records is at or before T (in place).
    ChainDerivation.deriveAll(storage, asOf: asOf)
    var kept = [Int32](repeating: -1, count: chainCount)
    var revocations: [Int32: Chain.Revocation] = [:]
    var w = 0
    for p in 0..<chainCount where !storage.chains[p].isEmpty {
      kept[p] = Int32(truncatingIfNeeded: w)
      if let revocation = storage.revocations[Int32(p)] { revocations[kept[p]] = revocation }
      if w != p { storage.chains[w] = storage.chains[p] }
      w += 1
    }
    storage.chains.removeLast(chainCount - w)
    storage.revocations = revocations

    MemDebug.note("derived")
    // Look-ups: chain keys per store (a later chain wins a tie), Play first order ids (the first chain wins).
    let chainList = storage.chains
    storage.index = Store.allCases.map { store in ChainKeyIndex(chainList, include: { $0.store == store }) }
    var playOrders = PackedIndex()
    for (c, orderBase) in named {
      let k = kept[Int(c)]
      guard k >= 0 else { continue }
      if let current = playOrders[orderBase], Int32(current) <= k { continue }
      playOrders.set(orderBase, UInt32(k))
    }
    named = []
    kept = []
    storage.playOrders = playOrders

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
    MemDebug.note("build end")
    MemDebug.ledger(built)
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
  var key: PackedID
  var chain: UInt32
  var rank: UInt8
  var space: UInt8
  var flags: UInt8

  /// The key is longer than 16 bytes or holds a NUL byte (equal words do not mean equal keys).
  static let long: UInt8 = 1
  /// The key has non-ASCII bytes (Swift orders it by Unicode rules, not bytes).
  static let nonASCII: UInt8 = 2

  init(key: PackedID, space: RecordBatch.Space, chain: UInt32, pool: TextPool) {
    self.key = key
    self.chain = chain
    self.space = space.rawValue
    let store = space.store
    rank = store == .appStore ? 0 : (store == .play ? 1 : 2)
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
}

/// What the builder tracks of one chain while records arrive (56 bytes, one cache line).
struct BuilderChain {
  var key: PackedID
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
