/// Collects imported store records into purchase chains. Feed it every record, then ``build(asOf:catalog:)``.
///
/// Play records arrive keyed by purchase token (subscription resources, most voided records) or by
/// first order id (sales rows); `build` merges an order-keyed chain into the token-keyed chain whose
/// resource (or voided record) names that order, so each Play purchase is one chain.
public final class LedgerBuilder {
  private var appStore: [String: Chain] = [:]
  private var stripe: [String: Chain] = [:]
  private var playByToken: [String: Chain] = [:]
  private var playByOrder: [String: Chain] = [:]

  /// Creates an empty builder.
  public init() {}

  /// Adds one record to its chain.
  public func add(_ record: StoreTransaction) {
    switch record.store {
    case .appStore: Self.insert(record, key: record.chainKey, into: &appStore, store: .appStore)
    case .stripe: Self.insert(record, key: record.chainKey, into: &stripe, store: .stripe)
    case .play:
      if let token = record.purchaseToken, !token.isEmpty {
        Self.insert(record, key: token, into: &playByToken, store: .play)
      } else {
        Self.insert(record, key: PlayOrderId.base(record.chainKey), into: &playByOrder, store: .play)
      }
    }
  }

  private static func insert(_ record: StoreTransaction, key: String, into map: inout [String: Chain], store: Store) {
    map[key, default: Chain(store: store, key: key)].append(record)
  }

  /// Merges Play chains, derives every chain's state as of `asOf`, and returns the ledger.
  public func build(asOf: Instant, catalog: Catalog) -> Ledger {
    // Link order-keyed Play chains to the token chain that names their first order.
    var tokenOfOrder: [String: String] = [:]
    for (token, chain) in playByToken {
      for base in chain.orderBaseIds { tokenOfOrder[base] = tokenOfOrder[base].map { min($0, token) } ?? token }
    }
    var play = playByToken
    playByToken = [:]
    for (base, orderChain) in playByOrder {
      if let token = tokenOfOrder[base] {
        play[token]?.absorb(orderChain)
      } else {
        play[base] = orderChain
      }
    }
    playByOrder = [:]
    // Sort the keys, not the (large) chains, and move each chain into place once: the maps are taken
    // out of `self` first so that removing from them never copies them.
    var maps = [appStore, play, stripe]  // store order: app_store < play < stripe
    appStore = [:]
    stripe = [:]
    play = [:]
    var all: [Chain] = []
    all.reserveCapacity(maps.reduce(0) { $0 + $1.count })
    for i in maps.indices {
      for key in maps[i].keys.sorted() {
        if let chain = maps[i].removeValue(forKey: key) { all.append(chain) }
      }
    }
    return Ledger(chains: all, asOf: asOf, catalog: catalog)
  }
}

extension Chain {
  mutating func append(_ record: StoreTransaction) {
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
