/// Every purchase chain of the run, derived as of one instant, with look-ups by the keys apps store.
public struct Ledger: Sendable {
  /// The chains, sorted by store then key.
  public private(set) var chains: [Chain]
  /// The as-of instant the chains were derived for.
  public let asOf: Instant
  private var index: [Store: [String: Int]] = [:]
  private var playOrders: [String: Int] = [:]

  /// Derives every chain as of `asOf` and indexes them.
  public init(chains: consuming [Chain], asOf: Instant, catalog: Catalog) {
    self.asOf = asOf
    // A chain none of whose records is at or before T is not known to the store as of T.
    var derived = chains
    for i in derived.indices { ChainDerivation.derive(&derived[i], asOf: asOf, catalog: catalog) }
    derived.removeAll { $0.purchases.isEmpty && $0.status == nil && $0.refunds.isEmpty && $0.voids.isEmpty }
    for (i, chain) in derived.enumerated() {
      index[chain.store, default: [:]][chain.key] = i
      if chain.store == .play {
        for base in chain.orderBaseIds where playOrders[base] == nil { playOrders[base] = i }
      }
    }
    // A Play chain named by another chain's linkedPurchaseToken is superseded by it.
    let playIndex = index[.play] ?? [:]
    for i in derived.indices where derived[i].store == .play {
      guard let status = derived[i].status, let old = status.linkedChainKey, !derived[i].pending,
        status.at <= asOf
      else { continue }
      let target = playIndex[old] ?? (PlayOrderId.isOrderId(old) ? playOrders[PlayOrderId.base(old)] : nil)
      if let target, target != i { derived[target].supersededBy = derived[i].key }
    }
    self.chains = derived
  }

  /// The index of the chain that `key` names in `store`: a chain key, or for Play any order id of the
  /// chain (first order or renewal `..N`).
  public func chainIndex(store: Store, key: String) -> Int? {
    if let i = index[store]?[key] { return i }
    if store == .play && PlayOrderId.isOrderId(key) { return playOrders[PlayOrderId.base(key)] }
    return nil
  }

  /// The chain that `key` names in `store`, if the store data knows it.
  public func chain(store: Store, key: String) -> Chain? {
    chainIndex(store: store, key: key).map { chains[$0] }
  }
}
