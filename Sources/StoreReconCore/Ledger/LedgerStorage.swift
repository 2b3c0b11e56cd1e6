import StoreReconPlatform

/// Everything a ``Ledger`` holds, packed: records in one array, chains as small structs with ranges
/// into a record order, the texts in pools, look-ups in open-addressing indexes.
///
/// Built once by ``LedgerBuilder`` and read-only afterwards (shared by copies of the ledger).
package final class LedgerStorage: @unchecked Sendable {
  /// Records in arrival order.
  let records = GrowableBuffer<PackedRecord>()
  /// Record numbers grouped by chain: each chain's purchases (purchase order), refunds, voids.
  var order: [UInt32] = []
  /// Chains sorted by store, then key (one cache line each).
  var chains = AlignedChains()
  /// Play subscription resources, by ``ChainState/status``.
  var statuses: [StatusRecord] = []
  /// Side fields by record number.
  var rare: [Int: RareFields] = [:]
  /// Revocations by chain index.
  var revocations: [Int32: Chain.Revocation] = [:]
  /// Play orders an earnings report refunded at or before T: the earliest `Charge refund` instant.
  var earningsReturns: [CompactID: Int64] = [:]
  /// App Store transactions a REFUND notification names: where it was read (``RefundEvidence/appLog``, …).
  var noticeSources: [CompactID: [String]] = [:]
  /// Chain keys, transaction ids and order ids that do not pack into numbers.
  var pool = TextPool()
  /// Account tokens.
  var tokens = TokenStore()
  /// Product names, types and variants.
  var products = ProductNames()
  /// Chain index by key, per store.
  var index: [ChainKeyIndex] = Array(repeating: ChainKeyIndex(), count: Store.allCases.count)
  /// Play chain index by first order id (lowest chain index first).
  var playOrders = PackedIndex()

  /// A sum over what prefetching loops read ahead (kept so that the compiler keeps those reads).
  var touched: Int64 = 0
  /// Whether ``release()`` freed the records, chains and look-ups.
  private(set) var isReleased = false

  init() {}

  /// Drops everything but the key pool and the product names (which lineage rows and findings name).
  func release() {
    isReleased = true
    records.removeAll()
    order = []
    chains = AlignedChains()
    statuses = []
    rare = [:]
    revocations = [:]
    earningsReturns = [:]
    noticeSources = [:]
    tokens = TokenStore()
    index = Array(repeating: ChainKeyIndex(), count: Store.allCases.count)
    playOrders = PackedIndex()
  }

  /// The index of `store` in ``index``.
  @inline(__always)
  package static func slot(_ store: Store) -> Int {
    switch store {
    case .appStore: return 0
    case .play: return 1
    case .stripe: return 2
    }
  }

  /// The chain `key` names in `store`: a chain key or, for Play, any order id of the chain.
  func chainIndex(store: Store, key: PackedID) -> Int? {
    if let i = index[LedgerStorage.slot(store)].find(key, in: chains) { return i }
    guard store == .play else { return nil }
    switch key.kind {
    case .playOrder:
      return playOrders[key.playBase].map(Int.init)
    case .pooled:
      let text = pool.string(key.poolID)
      guard PlayOrderId.isOrderId(text) else { return nil }
      return PackedID.find(PlayOrderId.base(text), in: pool).flatMap { playOrders[$0] }.map(Int.init)
    case .decimal, .empty:
      return nil
    }
  }

  /// The chain `key` names in `store` (text as the app stores it).
  func chainIndex(store: Store, key: String) -> Int? {
    if let packed = PackedID.find(key, in: pool), let i = chainIndex(store: store, key: packed) { return i }
    guard store == .play, PlayOrderId.isOrderId(key) else { return nil }
    return PackedID.find(PlayOrderId.base(key), in: pool).flatMap { playOrders[$0] }.map(Int.init)
  }

  /// The record numbers of chain `c`'s purchases, oldest first.
  @inline(__always)
  func purchases(_ c: Int) -> Range<Int> { chains[c].purchaseRange }

  /// The record numbers of chain `c`'s Play refund rows.
  @inline(__always)
  func refunds(_ c: Int) -> Range<Int> { chains[c].refundRange }

  /// The record numbers of chain `c`'s Play voided purchases.
  @inline(__always)
  func voids(_ c: Int) -> Range<Int> { chains[c].voidRange }

  /// The position in ``order`` of chain `c`'s latest paid charge (paid charges are flagged), if any.
  @inline(__always)
  func latestPaid(_ c: Int) -> Int? {
    for k in purchases(c).reversed() where records[Int(order[k])].isPaid { return k }
    return nil
  }

  /// The record at position `k` of ``order``.
  @inline(__always) func record(at k: Int) -> PackedRecord { records[Int(order[k])] }

  /// Where chain `c` stands in its commitment plan as of T, if the period that backs access now is a
  /// payment of one: the Play resource's installments, else the latest App Store purchase stating a
  /// commitment (docs/rules.md#commitment-plans).
  func commitment(_ c: Int) -> Commitment? {
    let chain = chains[c]
    guard chain.onCommitment else { return nil }
    if chain.status >= 0, let installments = Commitment(packed: statuses[Int(chain.status)].installments) {
      return installments
    }
    for k in purchases(c).reversed() {
      if let found = rareFields(Int(order[k]))?.commitment { return found }
    }
    return nil
  }

  /// Side fields of record `n`, if any.
  @inline(__always)
  func rareFields(_ n: Int) -> RareFields? { records[n].flags.contains(.rare) ? rare[n] : nil }

  /// When record `n` was revoked (Apple), if it was.
  @inline(__always)
  func revokedAt(_ n: Int) -> Int64? {
    guard records[n].flags.contains(.rare), let at = rare[n]?.revokedAt else { return nil }
    return at.ms
  }

  /// The tax of record `n` (0 when it states none).
  @inline(__always)
  func tax(_ n: Int) -> Int64 {
    let r = records[n]
    if r.flags.contains(.taxInExtra) { return r.extra }
    if r.flags.contains(.rare), let tax = rare[n]?.tax { return tax }
    return 0
  }

  /// Record `n` as a ``StoreTransaction`` of chain `c` (for views and tests). Not kept per record: the
  /// origin, offer and reason; the account token and original purchase date (see ``Chain``).
  func transaction(_ n: Int, chain c: Int) -> StoreTransaction {
    let r = records[n]
    let chain = chains[c]
    var t = StoreTransaction(
      store: chain.store, kind: r.kind, chainKey: chain.key.string(pool: pool),
      transactionId: r.transactionId.string(pool: pool), productId: products.name(ofVariant: r.variant),
      at: Instant(ms: r.at), origin: Origin(file: -1, line: 0))
    t.productTypeRaw = products.typeRaw(ofVariant: r.variant)
    t.country = products.country(ofVariant: r.variant)
    t.quantity = products.quantity(ofVariant: r.variant)
    t.expiresAt = r.expires == PackedRecord.none ? nil : Instant(ms: r.expires)
    t.amountMinor = r.amount
    if r.flags.contains(.taxInExtra) { t.taxMinor = r.extra }
    t.currency = r.currencyValue
    t.isTrial = r.isTrial
    t.environment = r.environment
    t.familyShared = r.isFamilyShared
    t.isUpgraded = r.isUpgraded
    t.pending = r.flags.contains(.pending)
    t.noGrace = r.flags.contains(.noGrace)
    if let rare = rareFields(n) {
      t.revokedAt = rare.revokedAt
      t.revocationType = rare.revocationType
      t.revocationReason = rare.revocationReason
      t.revocationPercentMilli = rare.revocationPercentMilli
      if let tax = rare.tax { t.taxMinor = tax }
      t.commitment = rare.commitment
    }
    return t
  }

  /// Status `s` of chain `c` as a ``StoreTransaction``.
  func statusTransaction(_ s: Int, chain c: Int) -> StoreTransaction {
    let r = statuses[s]
    let key = chains[c].key.string(pool: pool)
    var t = StoreTransaction(
      store: .play, kind: .status, chainKey: key, transactionId: key,
      productId: products.name(ofVariant: r.variant), at: Instant(ms: r.at), origin: Origin(file: -1, line: 0)
    )
    t.productTypeRaw = products.typeRaw(ofVariant: r.variant)
    t.expiresAt = r.expires == PackedRecord.none ? nil : Instant(ms: r.expires)
    t.amountMinor = r.amount
    t.currency = r.currencyValue
    t.isTrial = r.isTrial
    t.environment = r.environment
    t.pending = r.pending
    t.purchaseToken = key
    t.latestOrderId = r.latestOrder.optionalString(pool: pool)
    t.linkedChainKey = r.linked.optionalString(pool: pool)
    if r.token != 0 { t.accountToken = tokens.string(r.token - 1) }
    t.commitment = Commitment(packed: r.installments)
    return t
  }
}

extension LedgerStorage {
  /// What is wrong with the ledger's look-up tables (nothing: empty): the key pool, the product table,
  /// the chain index of each store over the chains of that store, and the Play first-order index, each
  /// by its own `checkInvariants`; and every first order naming a Play chain. For tests and debugging.
  func checkInvariants() -> [String] {
    var problems = pool.checkInvariants().map { "key pool: " + $0 }
    problems += products.checkInvariants()
    for store in Store.allCases {
      problems += index[LedgerStorage.slot(store)].checkInvariants(chains: chains) { $0.store == store }
        .map { "\(store) index: " + $0 }
    }
    problems += playOrders.checkInvariants().map { "Play first orders: " + $0 }
    playOrders.forEach { key, c in
      if Int(c) >= chains.count || chains[Int(c)].store != .play {
        problems.append("Play first orders: \(key) names chain \(c), not a Play chain")
      }
    }
    return problems
  }
}

/// One chain in the ledger: its key, where its records are, and what follows from them as of T
/// (64 bytes; fields ordered so that none needs padding).
struct ChainState: Sendable {
  package var key: PackedID
  /// First position of the chain's records in ``LedgerStorage/order``.
  var startOffset: UInt32
  var purchaseCount: UInt32
  var refundCount: UInt32
  var voidCount: UInt32
  /// Index into ``LedgerStorage/statuses``, or -1.
  var status: Int32
  /// Product name number of the current product, or `UInt32.max`.
  var currentProduct: UInt32
  /// Index of the chain that supersedes this one, or -1.
  var supersededBy: Int32
  /// Account token number + 1, or 0.
  var accountToken: UInt32
  var store: Store
  var flags: Flags
  /// Paid-through instant (ms), or ``PackedRecord/none``.
  var paidThrough: Int64
  /// Original purchase instant (ms), or ``PackedRecord/none``.
  var originalPurchaseAt: Int64

  /// First position of the chain's records in ``LedgerStorage/order``.
  @inline(__always)
  var start: Int {
    get { Int(startOffset) }
    set { startOffset = UInt32(truncatingIfNeeded: newValue) }
  }

  /// Positions of the chain's purchases in ``LedgerStorage/order``, oldest first.
  @inline(__always)
  var purchaseRange: Range<Int> { start..<start + Int(purchaseCount) }

  /// Positions of the chain's Play refund rows in ``LedgerStorage/order``.
  @inline(__always)
  var refundRange: Range<Int> {
    let from = start + Int(purchaseCount)
    return from..<from + Int(refundCount)
  }

  /// Positions of the chain's Play voided purchases in ``LedgerStorage/order``.
  @inline(__always)
  var voidRange: Range<Int> {
    let from = start + Int(purchaseCount) + Int(refundCount)
    return from..<from + Int(voidCount)
  }

  /// Derived flags.
  struct Flags: OptionSet, Sendable {
    var rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }
    static let production = Flags(rawValue: 1)
    static let pending = Flags(rawValue: 2)
    static let familyShared = Flags(rawValue: 4)
    static let revoked = Flags(rawValue: 8)
    /// The period that backs access now is a payment of a commitment plan (docs/rules.md#commitment-plans).
    static let commitment = Flags(rawValue: 16)
    /// The period that backs access now gets no grace after it (a Stripe subscription that is not
    /// `past_due`, `active` or `trialing`: docs/rules.md#stripe).
    static let noGrace = Flags(rawValue: 32)
  }

  @inline(__always) var production: Bool { flags.contains(.production) }
  @inline(__always) var pending: Bool { flags.contains(.pending) }
  @inline(__always) var familyShared: Bool { flags.contains(.familyShared) }
  @inline(__always) var revoked: Bool { flags.contains(.revoked) }
  @inline(__always) var onCommitment: Bool { flags.contains(.commitment) }
  @inline(__always) var withoutGrace: Bool { flags.contains(.noGrace) }
  @inline(__always) var isEmpty: Bool {
    purchaseCount == 0 && refundCount == 0 && voidCount == 0 && status < 0
  }
}
