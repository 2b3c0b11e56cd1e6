/// Records of one stretch of input, packed with their own small pools so that a worker thread can fill
/// one without touching the ledger; ``LedgerBuilder/merge(_:)`` then adds them in order.
///
/// Chain keys are put in a namespace: App Store, Stripe, Play purchase token, Play first order id
/// (a Play record without a token is keyed by its order id without `..N`, as ``LedgerBuilder`` does).
package final class RecordBatch: @unchecked Sendable {
  /// Chain-key namespaces.
  package enum Space: UInt8 {
    case appStore = 0, stripe = 1, playToken = 2, playOrder = 3

    /// The store of a namespace.
    var store: Store {
      switch self {
      case .appStore: return .appStore
      case .stripe: return .stripe
      case .playToken, .playOrder: return .play
      }
    }
  }

  package var records: [PackedRecord] = []
  /// Lines accepted without a verified signature (App Store decoded JSON, or any line when signatures
  /// are off): counted per input for the manifest and the summary; the ledger ignores it.
  package var unverifiedLines = 0
  /// App Store transactions accepted without a price (Xcode StoreKit testing, older transactions):
  /// they back access; revenue leaves them out (the store's reports hold their money).
  package var unpricedLines = 0
  /// Per record: its chain key (pooled in ``texts``) and namespace, its account token (number in
  /// ``tokens`` + 1, or 0) and its original purchase instant (or ``PackedRecord/none``).
  package var keys: [PackedID] = []
  package var spaces: [Space] = []
  package var tokenNumbers: [UInt32] = []
  package var originals: [Int64] = []
  /// Side fields by record number.
  package var rare: [Int: RareFields] = [:]
  /// Order ids a non-status record names explicitly (record number, first order id).
  var recordBases: [(record: Int, base: PackedID)] = []

  package var statuses: [StatusRecord] = []
  package var statusKeys: [PackedID] = []
  package var statusSpaces: [Space] = []
  /// Order ids a status names (status number, first order id).
  package var statusBases: [(status: Int, base: PackedID)] = []

  package let products = ProductNames()
  /// Pooled chain keys, transaction ids and order ids.
  package let texts = TextPool()
  /// Account tokens.
  package let tokens = TextPool()

  /// Per record and per status: the line it was read from, counted from ``lineOffset`` (0: unknown);
  /// the duplicates report names it (``LedgerBuilder/duplicates``).
  package var lines: [UInt32] = []
  package var statusLines: [UInt32] = []
  /// The lines of the input before the batch's (a chunk numbers its lines from its own start).
  package var lineOffset = 0

  /// The records and statuses packed since the last call came from line `line`.
  @inline(__always)
  package func noteLines(_ line: Int) {
    let n = UInt32(truncatingIfNeeded: line)
    while lines.count < records.count { lines.append(n) }
    while statusLines.count < statuses.count { statusLines.append(n) }
  }

  /// Earliest and latest record instant (`distantPast` instants excluded), as the run reports them.
  package var firstAt = Int64.max
  package var lastAt = Int64.min

  /// Creates an empty batch.
  package init() {}

  /// Whether the batch holds nothing.
  var isEmpty: Bool { records.isEmpty && statuses.isEmpty }

  /// Notes a record instant for ``firstAt`` / ``lastAt``.
  @inline(__always)
  package func noteInstant(_ ms: Int64) {
    if ms == Instant.distantPast.ms { return }
    if ms < firstAt { firstAt = ms }
    if ms > lastAt { lastAt = ms }
  }

  /// The chain namespace and key of a record, as ``LedgerBuilder`` keys chains.
  static func chainKey(of t: StoreTransaction) -> (Space, String) {
    switch t.store {
    case .appStore: return (.appStore, t.chainKey)
    case .stripe: return (.stripe, t.chainKey)
    case .play:
      if let token = t.purchaseToken, !token.isEmpty { return (.playToken, token) }
      return (.playOrder, PlayOrderId.base(t.chainKey))
    }
  }

  /// Packs one record of any kind.
  package func add(_ t: StoreTransaction) {
    noteInstant(t.at.ms)
    let (space, keyText) = RecordBatch.chainKey(of: t)
    let key = PackedID.intern(keyText, in: texts)
    let variant = products.variant(
      store: t.store, productId: t.productId, typeRaw: t.productTypeRaw, country: t.country,
      quantity: t.quantity)
    let token = t.accountToken.map { tokens.intern($0) + 1 } ?? 0
    let currency = t.currency.map { UInt16(truncatingIfNeeded: $0.tableIndex + 1) } ?? 0
    if t.kind == .status {
      var flags: UInt16 = t.pending ? 1 : 0
      if t.isTrial { flags |= 2 }
      flags |= PackedRecord.environmentBits(t.environment)
      let number = statuses.count
      statuses.append(
        StatusRecord(
          at: t.at.ms, expires: t.expiresAt?.ms ?? PackedRecord.none, amount: t.amountMinor,
          latestOrder: t.latestOrderId.map { PackedID.intern($0, in: texts) } ?? .absent,
          linked: t.linkedChainKey.map { PackedID.intern($0, in: texts) } ?? .absent,
          variant: variant, token: token, currency: currency, flags: flags,
          installments: t.commitment?.packed ?? 0))
      statusKeys.append(key)
      statusSpaces.append(space)
      for base in t.storedOrderBaseIds ?? [] {
        statusBases.append((number, PackedID.intern(base, in: texts)))
      }
      return
    }
    var flags = PackedRecord.Flags(
      rawValue: PackedRecord.kindBits(t.kind) | PackedRecord.environmentBits(t.environment))
    if t.isTrial { flags.insert(.trial) }
    if t.familyShared { flags.insert(.familyShared) }
    if t.isUpgraded { flags.insert(.upgraded) }
    if t.pending { flags.insert(.pending) }
    if t.noGrace { flags.insert(.noGrace) }
    var extra = t.expiresAt?.ms ?? PackedRecord.none
    var rareTax: Int64?
    if let tax = t.taxMinor {
      if t.expiresAt == nil {
        extra = tax
        flags.insert(.taxInExtra)
      } else {
        rareTax = tax
      }
    }
    let number = records.count
    if t.revokedAt != nil || t.revocationType != nil || t.revocationReason != nil
      || t.revocationPercentMilli != nil || rareTax != nil || t.commitment != nil
    {
      flags.insert(.rare)
      rare[number] = RareFields(
        revokedAt: t.revokedAt, revocationType: t.revocationType, revocationReason: t.revocationReason,
        revocationPercentMilli: t.revocationPercentMilli, tax: rareTax,
        revocationTypeUpper: t.revocationType?.uppercased(), commitment: t.commitment)
    }
    let record = PackedRecord(
      at: t.at.ms, amount: t.amountMinor, extra: extra,
      tx: CompactID(PackedID.intern(t.transactionId, in: texts), pooling: texts), variant: variant,
      currency: currency, flags: flags)
    records.append(record)
    keys.append(key)
    spaces.append(space)
    tokenNumbers.append(token)
    originals.append(t.originalAt?.ms ?? PackedRecord.none)
    for base in t.storedOrderBaseIds ?? [] { recordBases.append((number, PackedID.intern(base, in: texts))) }
  }
}
