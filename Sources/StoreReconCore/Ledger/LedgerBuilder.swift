import StoreReconPlatform

/// Collects imported store records into purchase chains. Feed it every record (``add(_:)``, or packed
/// batches with ``merge(_:)``), then ``build(asOf:catalog:)``.
///
/// Play records arrive keyed by purchase token (subscription resources, most voided records) or by
/// first order id (sales rows); `build` merges an order-keyed chain into the token-keyed chain whose
/// resource (or voided record) names that order, so each Play purchase is one chain.
package final class LedgerBuilder {
  var storage = LedgerStorage()
  /// Per record: its chain (builder numbering); while the build groups the records, its slot (chain
  /// position × 3 + kind).
  private var recordChain = GrowableBuffer<UInt32>()
  /// Per record: its kind bits (purchase 0, refund 1, void 2), so that grouping reads no records.
  private var recordKind = GrowableBuffer<UInt8>()
  /// Per chain (builder numbering): everything the builder tracks, in one place (one cache line).
  var chains: [BuilderChain] = []
  private var maps: [PackedIndex] = Array(repeating: PackedIndex(), count: 4)
  /// The order-keyed Play chains, in builder order.
  private var orderChains: [UInt32] = []
  /// First order ids each chain names (besides its own key).
  var bases: [(chain: UInt32, base: PackedID)] = []
  /// Keeps what the build's prefetching reads (so that the reads are not optimized away).
  private var prefetchSink: UInt32 = 0
  /// Records added one by one, merged before the next batch or the build.
  private var pending = RecordBatch()
  /// Per record: the line it was read from (0: not known).
  var recordLine = GrowableBuffer<UInt32>()
  /// Where each input's records start (``beginInput(_:)``), in arrival order.
  var inputStarts: [(input: Int32, record: Int)] = []
  /// The input being read, and per status: where it was read (input << 32 | line).
  private var currentInput: Int32 = -1
  private var statusOrigin: [UInt64] = []
  /// The records and Play resources read more than once: the resources found as they arrive, the
  /// records by ``build(asOf:catalog:)`` (each chain's records of one kind compared by id).
  package internal(set) var duplicates: [RecordDuplicate] = []
  /// What sources outside the feed say about refunds (earnings `Charge refund` rows, App Store refund
  /// notifications): read by ``build(asOf:catalog:)``.
  package var refundEvidence = RefundEvidence()

  /// Creates an empty builder.
  package init() {}

  /// The records added from here on are read from input `index` (the run's numbering), for the
  /// duplicates report.
  package func beginInput(_ index: Int32) {
    flushPending()
    currentInput = index
    inputStarts.append((index, storage.records.count))
  }

  /// Adds one record to its chain.
  package func add(_ record: StoreTransaction) {
    pending.add(record)
    pending.noteLines(Int(record.origin.line))
    if pending.records.count + pending.statuses.count >= 4096 { flushPending() }
  }

  /// Merges the records added one by one (before reading the builder's chains).
  func flushPendingRecords() { flushPending() }

  private func flushPending() {
    guard !pending.isEmpty else { return }
    let batch = pending
    pending = RecordBatch()
    mergeBatch(batch)
  }

  /// Records and statuses taken in so far (merged, or added one by one and merged).
  package private(set) var mergedCount = 0

  /// Records and statuses taken in so far, the ones added one by one and not yet merged included.
  package var takenCount: Int { mergedCount + pending.records.count + pending.statuses.count }

  /// A partitioned run's filter (namespace, chain key → whether this partition owns the lineage): the
  /// records and resources of other partitions' lineages are dropped as they arrive.
  package var keeps: ((RecordBatch.Space, String) -> Bool)?

  /// Sees every batch before ``keeps`` filters it (the worker's tagger reads each record's line and
  /// chain key here, docs/partitions.md).
  package var tap: ((RecordBatch) -> Void)?

  /// Inputs whose every record must pass ``keeps`` (a worker's engine-keyed inputs): a record of one
  /// that ``keeps`` drops is counted in ``strictRefusals`` instead of going unnoticed.
  package var strictInputs: Set<Int32> = []
  /// Records of ``strictInputs`` that ``keeps`` dropped.
  package private(set) var strictRefusals = 0

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

  /// Adds a batch's records and Play resources to their chains, the batch's texts and tokens interned
  /// into the builder's pools as they are first met.
  private func mergeBatch(_ batch: RecordBatch) {
    mergedCount += batch.records.count + batch.statuses.count
    tap?(batch)
    if let keep = keeps {
      let before = batch.records.count + batch.statuses.count
      batch.retain(keep)
      if strictInputs.contains(currentInput) {
        strictRefusals += before - batch.records.count - batch.statuses.count
      }
    }
    let variants = storage.products.numbers(of: batch.products)
    var ids = BatchIDs(batch, into: storage)
    mergeRecords(batch, variants: variants, ids: &ids)
    mergeStatuses(batch, variants: variants, ids: &ids)
  }

  /// Appends the batch's records to the ledger, each to its chain (a new key makes a new chain), and
  /// notes the first order ids they name and each chain's first purchases. The chains of the next 16
  /// records are read ahead (``touchChains(_:_:)``).
  private func mergeRecords(_ batch: RecordBatch, variants: [UInt32], ids: inout BatchIDs) {
    let records = batch.records
    let base = storage.records.count
    storage.records.reserve(base + records.count)
    recordChain.reserve(base + records.count)
    recordKind.reserve(base + records.count)
    recordLine.reserve(base + records.count)
    let lines = batch.lines.count == records.count ? batch.lines : []
    let lineOffset = UInt32(truncatingIfNeeded: batch.lineOffset)
    var lastKey = PackedID.absent
    var lastSpace = RecordBatch.Space.appStore
    var lastChain: UInt32 = 0
    var explicit = batch.recordBases.makeIterator()
    var nextExplicit = explicit.next()
    var touched: UInt32 = 0
    for i in records.indices {
      if i & 15 == 0 { touched &+= touchChains(batch, i..<min(i + 16, records.count)) }
      var r = records[i]
      r.variant = variants[Int(r.variant)]
      if r.tx.isPooled { r.tx = CompactID(pooled: ids.global(.pooled(r.tx.poolNumber)).poolID) }
      let key = batch.keys[i]
      let space = batch.spaces[i]
      let c: UInt32
      if key == lastKey && space == lastSpace {
        c = lastChain
      } else {
        c = chain(ids.global(key), space)
        lastKey = key
        lastSpace = space
        lastChain = c
      }
      if r.flags.contains(.rare), let fields = batch.rare[i] { storage.rare[base + i] = fields }
      while let (record, orderBase) = nextExplicit, record == i {
        bases.append((c, ids.global(orderBase)))
        nextExplicit = explicit.next()
      }
      if space == .playToken || space == .playOrder { noteImplicitBase(r.transactionId, chain: c) }
      storage.records.append(r)
      recordChain.append(c)
      recordKind.append(UInt8(truncatingIfNeeded: r.flags.rawValue & 3))
      recordLine.append(lines.isEmpty ? 0 : lineOffset &+ lines[i])
      if r.flags.rawValue & 3 == 0 {
        notePurchase(
          UInt32(truncatingIfNeeded: base + i), at: r.at, chain: Int(c), original: batch.originals[i],
          token: batch.tokenNumbers[i], ids: &ids)
      }
    }
    prefetchSink &+= touched
  }

  /// Purchase record `n` (at `at`) may be its chain's first purchase, and its first purchase carrying
  /// an account token (`token`: the batch's number of it, 0 for none).
  @inline(always)
  private func notePurchase(
    _ n: UInt32, at: Int64, chain c: Int, original: Int64, token: UInt32, ids: inout BatchIDs
  ) {
    if chains[c].firstPurchase == UInt32.max || precedes(n, at, chains[c].firstPurchase, chains[c].firstAt) {
      chains[c].firstPurchase = n
      chains[c].firstAt = at
      chains[c].firstOriginal = original
    }
    if token != 0
      && (chains[c].firstTokenPurchase == UInt32.max
        || precedes(n, at, chains[c].firstTokenPurchase, chains[c].firstTokenAt))
    {
      chains[c].firstTokenPurchase = n
      chains[c].firstTokenAt = at
      chains[c].firstToken = ids.globalToken(token)
    }
  }

  /// Adds the batch's Play resources to their chains (a chain keeps the one that says more recent
  /// things), and notes the first order ids they name.
  private func mergeStatuses(_ batch: RecordBatch, variants: [UInt32], ids: inout BatchIDs) {
    var statusBases = batch.statusBases.makeIterator()
    var nextBase = statusBases.next()
    for (i, incoming) in batch.statuses.enumerated() {
      var s = incoming
      s.variant = variants[Int(s.variant)]
      s.latestOrder = ids.global(s.latestOrder)
      s.linked = ids.global(s.linked)
      s.token = ids.globalToken(s.token)
      let c = chain(ids.global(batch.statusKeys[i]), batch.statusSpaces[i])
      let line = i < batch.statusLines.count ? UInt64(batch.statusLines[i]) + UInt64(batch.lineOffset) : 0
      keepStatus(s, chain: Int(c), origin: UInt64(UInt32(bitPattern: currentInput)) << 32 | line)
      while let (status, orderBase) = nextBase, status == i {
        bases.append((c, ids.global(orderBase)))
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
  @inline(always)
  private func precedes(_ a: UInt32, _ atA: Int64, _ b: UInt32, _ atB: Int64) -> Bool {
    if atA != atB { return atA < atB }
    return ChainDerivation.purchaseLess(a, b, storage.recordSlots, storage.pool)
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
  /// With `origin` (a resource read from an input, not one merged from another chain), the one left
  /// out is listed in ``duplicates``: the same resource again, or an older state of it.
  private func keepStatus(_ s: StatusRecord, chain c: Int, origin: UInt64? = nil) {
    let current = chains[c].status
    if current >= 0 {
      let kept = storage.statuses[Int(current)]
      let keptEnd = kept.expires == PackedRecord.none ? Instant.distantPast.ms : kept.expires
      let newEnd = s.expires == PackedRecord.none ? Instant.distantPast.ms : s.expires
      // (Account tokens are numbered as met, not by text: the same token read twice has two numbers.)
      var same = kept
      same.token = s.token
      let identical = same == s
      if let origin {
        let old = statusOrigin[Int(current)]
        let keepsOld = identical || keptEnd > newEnd
        noteResource(
          identical ? .duplicate : .superseded, chain: c, kept: keepsOld ? old : origin,
          dropped: keepsOld ? origin : old)
      }
      if identical || keptEnd > newEnd { return }
      storage.statuses[Int(current)] = s
      if let origin { statusOrigin[Int(current)] = origin }
    } else {
      chains[c].status = Int32(truncatingIfNeeded: storage.statuses.count)
      storage.statuses.append(s)
      statusOrigin.append(origin ?? 0)
    }
  }

  /// Lists a Play resource read again (origins: input << 32 | line).
  private func noteResource(_ kind: RecordDuplicate.Kind, chain c: Int, kept: UInt64, dropped: UInt64) {
    duplicates.append(
      RecordDuplicate(
        kind: kind, store: .play, id: chains[c].key.string(pool: storage.pool), record: "resource",
        keptInput: Int32(bitPattern: UInt32(truncatingIfNeeded: kept >> 32)),
        keptLine: Int(kept & 0xFFFF_FFFF),
        droppedInput: Int32(bitPattern: UInt32(truncatingIfNeeded: dropped >> 32)),
        droppedLine: Int(dropped & 0xFFFF_FFFF)))
  }

  /// Merges Play chains, derives every chain's state as of `asOf`, and returns the ledger.
  package func build(asOf: Instant, catalog: Catalog) -> Ledger {
    flushPending()
    maps = []  // every record is in: chains are found by number from here on
    storage.products.resolve(catalog: catalog)
    var target = linkOrderChains(tokenChainsByOrder())
    var live = sortedLiveChains(target: target)
    var position = LedgerBuilder.positions(live: live, target: target)
    target = []
    var starts = dropRepeatedRecords(
      slotCount: live.count * 3, starts: groupRecords(chainCount: live.count, position: position))
    applyRefundEvidence(asOf: asOf.ms)
    var selfNamed = makeChainStates(live: live, starts: starts, asOf: asOf.ms)
    starts = []
    var named = namedOrderIds(position: position, selfNamed: selfNamed)
    bases = []
    selfNamed = []
    chains = []
    live = []
    position = []
    // Derive each chain as of T; drop chains none of whose records is at or before T.
    var kept = dropEmptyChains(ChainDerivation.deriveAll(storage, asOf: asOf))
    makeIndexes(named: named, kept: kept)
    named = []
    kept = []
    markSuperseded(asOf: asOf)
    let built = storage
    storage = LedgerStorage()
    return Ledger(storage: built, asOf: asOf)
  }

  /// The token-keyed Play chain of each first order id the chains name: the one with the least key.
  /// In blocks of 16 ids: each block's index slots are read ahead, then its chains, so the misses overlap.
  private func tokenChainsByOrder() -> PackedIndex {
    let pool = storage.pool
    var tokenOfOrder = PackedIndex(capacity: bases.count)
    var sink: UInt32 = 0
    for block in (0..<bases.count).blocks(of: BlockSize.lookups) {
      for k in block { sink &+= tokenOfOrder.touch(bases[k].base) }
      for k in block where chains[Int(bases[k].chain)].space == .playToken {
        let (c, orderBase) = bases[k]
        tokenOfOrder.set(orderBase, c) { PackedID.less(chains[Int(c)].key, chains[Int($0)].key, pool: pool) }
      }
    }
    prefetchSink = sink
    return tokenOfOrder
  }

  /// Merges each order-keyed Play chain into the token chain that names its first order
  /// (`tokenOfOrder`), if any; returns every chain's target: the chain it was merged into, or itself.
  /// In blocks of 16 chains: each block's index slots are read ahead, then the token chains found.
  private func linkOrderChains(_ tokenOfOrder: PackedIndex) -> [UInt32] {
    var target = Array(0..<UInt32(truncatingIfNeeded: chains.count))
    let block = BlockSize.lookups
    var found = [UInt32](repeating: UInt32.max, count: block)
    var sink: UInt32 = 0
    let orders = orderChains
    orderChains = []
    for range in (0..<orders.count).blocks(of: block) {
      for k in range { sink &+= tokenOfOrder.touch(chains[Int(orders[k])].key) }
      for k in range {
        let token = tokenOfOrder[chains[Int(orders[k])].key] ?? UInt32.max
        found[k - range.lowerBound] = token
        if token != UInt32.max { sink &+= chains[Int(token)].firstPurchase }
      }
      for k in range where found[k - range.lowerBound] != UInt32.max {
        link(Int(orders[k]), into: found[k - range.lowerBound], target: &target)
      }
    }
    prefetchSink &+= sink
    return target
  }

  /// The live chains (the chains not merged into another: their own target) in ledger order: by
  /// store, then key (as Swift orders the keys' texts), then namespace and arrival. Each entry carries
  /// its key's first 16 bytes, big-endian, so most comparisons are two integer comparisons; longer or
  /// non-ASCII keys fall back to comparing the texts.
  private func sortedLiveChains(target: [UInt32]) -> [UInt32] {
    LedgerBuilder.sortedLiveChains(chains, target: target, pool: storage.pool)
  }

  /// Each builder chain's position in the ledger: a live chain's place in `live`, a merged chain its
  /// target's.
  private static func positions(live: [UInt32], target: [UInt32]) -> [UInt32] {
    var position = [UInt32](repeating: 0, count: target.count)
    for (p, c) in live.enumerated() { position[Int(c)] = UInt32(p) }
    for c in target.indices where target[c] != UInt32(c) { position[c] = position[Int(target[c])] }
    return position
  }

  /// Groups the record numbers by chain position, then kind (purchases, refunds, voids), in arrival
  /// order, into the ledger's record order; returns where each group starts (`starts[p * 3 + kind]`,
  /// then the end), and frees the per-record chain and kind.
  ///
  /// Counted and placed on all cores: each part counts its records per slot (chain × kind); a part's
  /// records of a slot follow the earlier parts' there, so each slot keeps arrival order.
  private func groupRecords(chainCount: Int, position: [UInt32]) -> [UInt32] {
    let slotCount = chainCount * 3
    let recordCount = storage.records.count
    let recordChain = self.recordChain
    let recordKind = self.recordKind
    let parts = Parallel.parts(for: recordCount, minimum: 500_000)
    var fills = Parallel.map(parts: parts) { part -> [UInt32] in
      var counts = [UInt32](repeating: 0, count: slotCount)
      for i in Parallel.range(part, of: parts, count: recordCount) {
        let slot = position[Int(recordChain[i])] &* 3 &+ UInt32(recordKind[i])
        recordChain[i] = slot
        counts[Int(slot)] += 1
      }
      return counts
    }
    var starts = [UInt32](repeating: 0, count: slotCount + 1)
    var total: UInt32 = 0
    for slot in 0..<slotCount {
      starts[slot] = total
      for k in 0..<parts {
        let count = fills[k][slot]
        fills[k][slot] = total
        total += count
      }
    }
    starts[slotCount] = total
    var order = [UInt32](repeating: 0, count: recordCount)
    // Part k fills its own `fills[k]` (its window is that one element) and its records' places in `order`.
    _ = Parallel.map(parts: parts, filling: &fills, sharing: &order) { own, fills, order in
      var fill = fills[own.lowerBound]
      fills[own.lowerBound] = []
      for i in Parallel.range(own.lowerBound, of: parts, count: recordCount) {
        let slot = Int(recordChain[i])
        order[Int(fill[slot])] = UInt32(truncatingIfNeeded: i)
        fill[slot] += 1
      }
    }
    storage.order = order
    self.recordChain.removeAll()
    self.recordKind.removeAll()
    return starts
  }

  /// The ledger's chains as their records left them, before deriving (on all cores): chain position
  /// `p` is builder chain `live[p]`, its records at `starts`. Returns, per part, the chains whose own
  /// key is one of their first order ids.
  private func makeChainStates(live: [UInt32], starts: [UInt32], asOf t: Int64) -> [[(
    chain: UInt32, base: PackedID
  )]] {
    let chains = self.chains
    let parts = Parallel.parts(for: live.count, minimum: 200_000)
    let made = AlignedChains.made(count: live.count, parts: parts) { range, states in
      var selfBases: [(chain: UInt32, base: PackedID)] = []
      for p in range {
        let chain = chains[Int(live[p])]
        if chain.selfBase { selfBases.append((UInt32(p), chain.key)) }
        states.append(chain.state(at: p, starts: starts, asOf: t))
      }
      return selfBases
    }
    storage.chains = made.table
    return made.parts
  }

  /// The first order ids each chain names, by chain position: the ids its records and resources name,
  /// then its own key where its records name it (`selfNamed`). (Which chain wins an id does not depend
  /// on this order: see ``makeIndexes(named:kept:)``.)
  private func namedOrderIds(position: [UInt32], selfNamed: [[(chain: UInt32, base: PackedID)]]) -> [(
    chain: UInt32, base: PackedID
  )] {
    let bases = self.bases
    var named: [(chain: UInt32, base: PackedID)] = []
    named.reserveCapacity(bases.count + selfNamed.reduce(0) { $0 + $1.count })
    named.append(contentsOf: repeatElement((chain: UInt32(0), base: PackedID.absent), count: bases.count))
    let parts = Parallel.parts(for: bases.count, minimum: 200_000)
    _ = Parallel.map(parts: parts, filling: &named) { range, named in
      for i in range { named[i] = (position[Int(bases[i].chain)], bases[i].base) }
    }
    for part in selfNamed { named.append(contentsOf: part) }
    return named
  }

  /// Drops the `empty` chains none of whose records is at or before T, in place, and renumbers the
  /// revocations; returns each chain's new position (-1: dropped), or nothing when no chain is dropped
  /// (nothing moves).
  private func dropEmptyChains(_ empty: Int) -> [Int32] {
    guard empty > 0 else { return [] }
    let chainCount = storage.chains.count
    var kept = [Int32](repeating: -1, count: chainCount)
    var w = 0
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
    return kept
  }

  /// The look-ups: chain keys per store (a later chain wins a tie) and Play first order ids
  /// (``firstOrderIndex(_:kept:)``). The App Store index on one core; the Play and Stripe indexes and
  /// the first order ids on the other.
  private func makeIndexes(named: [(chain: UInt32, base: PackedID)], kept: [Int32]) {
    let chains = storage.chains
    let keyed = Parallel.map(parts: 2) { part -> ([ChainKeyIndex], PackedIndex, UInt32) in
      guard part == 1 else {
        return ([ChainKeyIndex(chains, include: { $0.store == .appStore })], PackedIndex(), 0)
      }
      let indexes = [
        ChainKeyIndex(chains, include: { $0.store == .play }),
        ChainKeyIndex(chains, include: { $0.store == .stripe }),
      ]
      let (playOrders, touched) = LedgerBuilder.firstOrderIndex(named, kept: kept)
      return (indexes, playOrders, touched)
    }
    storage.index = keyed[0].0 + keyed[1].0
    storage.playOrders = keyed[1].1
    prefetchSink &+= keyed[1].2
  }

  /// The Play chain of each first order id (`named`, by chain position before the drop; `kept`: the
  /// positions after it, empty when nothing was dropped): the first chain naming it wins. In blocks of
  /// 16 ids whose index slots are read ahead. Returns the index and a sum of what was read ahead.
  private static func firstOrderIndex(_ named: [(chain: UInt32, base: PackedID)], kept: [Int32]) -> (
    PackedIndex, UInt32
  ) {
    var playOrders = PackedIndex(capacity: named.count)
    var touched: UInt32 = 0
    for block in (0..<named.count).blocks(of: BlockSize.lookups) {
      for i in block { touched &+= playOrders.touch(named[i].base) }
      for i in block {
        let (chain, base) = named[i]
        let k = kept.isEmpty ? Int32(bitPattern: chain) : kept[Int(chain)]
        guard k >= 0 else { continue }
        playOrders.set(base, UInt32(k)) { Int32($0) > k }
      }
    }
    return (playOrders, touched)
  }

  /// A Play chain named by another chain's `linkedPurchaseToken` (as of T) is superseded by it.
  private func markSuperseded(asOf: Instant) {
    for i in storage.chains.indices where storage.chains[i].store == .play {
      let chain = storage.chains[i]
      guard chain.status >= 0, !chain.pending else { continue }
      let s = storage.statuses[Int(chain.status)]
      guard !s.linked.isAbsent, s.at <= asOf.ms, let t = storage.chainIndex(store: .play, key: s.linked),
        t != i
      else { continue }
      storage.chains[t].supersededBy = Int32(truncatingIfNeeded: i)
    }
  }
}

/// A batch's own text and token numbers as the builder's, each interned into the builder's pools once,
/// when first met.
struct BatchIDs {
  /// The batch's pools, and the builder's.
  private let batchTexts: TextPool
  private let batchTokens: TextPool
  private let pool: TextPool
  private let tokenStore: TokenStore
  /// Per batch text: the builder's number, or `UInt32.max` before it is met.
  private var texts: [UInt32]
  /// Per batch token: the builder's number + 1, or 0 before it is met.
  private var tokens: [UInt32]

  /// The numbers of `batch` in `storage`'s pools, none met yet.
  init(_ batch: RecordBatch, into storage: LedgerStorage) {
    batchTexts = batch.texts
    batchTokens = batch.tokens
    pool = storage.pool
    tokenStore = storage.tokens
    texts = [UInt32](repeating: UInt32.max, count: batch.texts.count)
    tokens = [UInt32](repeating: 0, count: batch.tokens.count)
  }

  /// `id` as the builder numbers it (a pooled id interned into the builder's pool).
  @inline(always)
  mutating func global(_ id: PackedID) -> PackedID {
    guard id.kind == .pooled else { return id }
    let local = Int(id.poolID)
    if texts[local] == UInt32.max {
      texts[local] = batchTexts.withBytes(id.poolID) { pool.intern($0) }
    }
    return .pooled(texts[local])
  }

  /// Account token `token` (the batch's number + 1, or 0) as the builder numbers it.
  @inline(always)
  mutating func globalToken(_ token: UInt32) -> UInt32 {
    guard token != 0 else { return 0 }
    let local = Int(token - 1)
    if tokens[local] == 0 {
      tokens[local] = batchTokens.withBytes(token - 1) { tokenStore.add($0) } + 1
    }
    return tokens[local]
  }
}

/// A live chain while the builder sorts them: store rank, the key's first 16 bytes as two big-endian
/// words (zero-padded, so a shorter text orders first on a common prefix), and flags for keys the words
/// do not decide.
struct ChainSortEntry {
  var high: UInt64
  var low: UInt64
  /// The chain key.
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

  /// The entry of builder chain `chain`, whose key is `key` (texts in `pool`) in namespace `space`.
  @inline(always)
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
  /// The chain key (in its namespace, ``space``).
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

extension BuilderChain {
  /// The chain's ledger state at position `p` before deriving: its key, where its records are (its
  /// purchases, refunds and voids start at `starts[p * 3]`, `starts[p * 3 + 1]` and `starts[p * 3 + 2]`),
  /// its Play resource and store, and as of T its original purchase (its first purchase's, unless even
  /// that one is after T) and its account token (from its first purchase carrying one, at or before T).
  @inline(always)
  func state(at p: Int, starts: [UInt32], asOf t: Int64) -> ChainState {
    var original = PackedRecord.none
    if firstPurchase != UInt32.max, firstAt <= t {
      original = firstOriginal == PackedRecord.none ? firstAt : firstOriginal
    }
    let token = firstTokenPurchase != UInt32.max && firstTokenAt <= t ? firstToken : 0
    let first = p * 3
    return ChainState(
      key: key, startOffset: starts[first], purchaseCount: starts[first + 1] - starts[first],
      refundCount: starts[first + 2] - starts[first + 1], voidCount: starts[first + 3] - starts[first + 2],
      status: status, currentProduct: UInt32.max, supersededBy: -1, accountToken: token, store: space.store,
      flags: [.production], paidThrough: PackedRecord.none, originalPurchaseAt: original)
  }
}
