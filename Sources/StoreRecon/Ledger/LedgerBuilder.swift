/// Collects imported store records into purchase chains. Feed it every record, then ``build(asOf:catalog:)``.
///
/// Play records arrive keyed by purchase token (subscription resources, most voided records) or by
/// first order id (sales rows); `build` merges an order-keyed chain into the token-keyed chain whose
/// resource (or voided record) names that order, so each Play purchase is one chain.
public final class LedgerBuilder {
  /// Every chain so far, in arrival order; the maps below point into it.
  private var chains: [Chain] = []
  private var appStore: [String: Int] = [:]
  private var stripe: [String: Int] = [:]
  private var playByToken: [String: Int] = [:]
  private var playByOrder: [String: Int] = [:]

  /// Creates an empty builder.
  public init() {}

  /// Adds one record to its chain.
  public func add(_ record: StoreTransaction) {
    switch record.store {
    case .appStore: insert(record, key: record.chainKey, into: &appStore)
    case .stripe: insert(record, key: record.chainKey, into: &stripe)
    case .play:
      if let token = record.purchaseToken, !token.isEmpty {
        insert(record, key: token, into: &playByToken)
      } else {
        insert(record, key: PlayOrderId.base(record.chainKey), into: &playByOrder)
      }
    }
  }

  private func insert(_ record: StoreTransaction, key: String, into map: inout [String: Int]) {
    if let i = map[key] {
      chains[i].append(record)
    } else {
      map[key] = chains.count
      var chain = Chain(store: record.store, key: key)
      chain.append(record)
      chains.append(chain)
    }
  }

  /// Merges Play chains, derives every chain's state as of `asOf`, and returns the ledger.
  public func build(asOf: Instant, catalog: Catalog) -> Ledger {
    // Link order-keyed Play chains to the token chain that names their first order.
    var tokenOfOrder: [String: String] = [:]
    for (token, i) in playByToken {
      for base in chains[i].orderBaseIds { tokenOfOrder[base] = tokenOfOrder[base].map { min($0, token) } ?? token }
    }
    var live: [(store: Store, key: String, index: Int)] = []
    live.reserveCapacity(chains.count)
    for (key, i) in appStore { live.append((.appStore, key, i)) }
    for (key, i) in stripe { live.append((.stripe, key, i)) }
    for (key, i) in playByToken { live.append((.play, key, i)) }
    for (base, i) in playByOrder {
      if let token = tokenOfOrder[base], let target = playByToken[token] {
        var absorbed = Chain(store: .play, key: base)
        swap(&absorbed, &chains[i])
        chains[target].absorb(absorbed)
      } else {
        live.append((.play, base, i))
      }
    }
    appStore = [:]
    stripe = [:]
    playByToken = [:]
    playByOrder = [:]
    // Sort small (store, key, index) entries, then move each chain out once in that order.
    live.sort { ($0.store, $0.key) < ($1.store, $1.key) }
    var all: [Chain] = []
    all.reserveCapacity(live.count)
    for entry in live {
      var taken = Chain(store: entry.store, key: "")
      swap(&taken, &chains[entry.index])
      all.append(taken)
    }
    chains = []
    return Ledger(chains: all, asOf: asOf, catalog: catalog)
  }
}

extension Chain {
  mutating func append(_ incoming: StoreTransaction) {
    // Share the chain's own copies of strings every record repeats, so millions of records do not each
    // hold a private copy of the same key or account token.
    var record = incoming
    if record.chainKey == key { record.chainKey = key }
    if let token = record.accountToken, let known = accountTokenShared, token == known {
      record.accountToken = known
    }
    switch record.kind {
    case .purchase: purchases.append(record)
    case .refund: refunds.append(record)
    case .void: voids.append(record)
    case .status:
      // Two resources for one token: keep the one that says more recent things.
      if let current = status, (current.expiresAt ?? .distantPast) > (record.expiresAt ?? .distantPast) {
        break
      }
      status = record
    }
    for base in record.storedOrderBaseIds ?? [] where !orderBaseIds.contains(base) { orderBaseIds.append(base) }
    if record.store == .play && record.kind != .status && PlayOrderId.isOrderId(record.transactionId) {
      let base = PlayOrderId.base(record.transactionId)
      if !orderBaseIds.contains(base) { orderBaseIds.append(base) }
    }
  }

  mutating func absorb(_ other: Chain) {
    purchases.append(contentsOf: other.purchases)
    refunds.append(contentsOf: other.refunds)
    voids.append(contentsOf: other.voids)
    if let s = other.status { append(s) }
    for base in other.orderBaseIds where !orderBaseIds.contains(base) { orderBaseIds.append(base) }
  }
}
