/// Per store × product: chains the store says are paid through T against the app's active entitlements.
public struct CountsRow: Sendable, Equatable {
  public var store: Store
  public var productId: String
  /// Production, non-pending chains not refunded or superseded whose paid-through is after T.
  public var chainsPaidThrough: Int = 0
  /// Store-sourced entitlements of that store and product active at T.
  public var entitlementsActive: Int = 0

  /// `entitlementsActive − chainsPaidThrough`: positive means more access than paid periods.
  public var difference: Int { entitlementsActive - chainsPaidThrough }

  /// Creates an empty row.
  public init(store: Store, productId: String) {
    self.store = store
    self.productId = productId
  }

  /// The counts table, sorted by store then product.
  public static func rows(ledger: Ledger, entitlements: [Entitlement], asOf t: Instant) -> [CountsRow] {
    struct Key: Hashable {
      var store: Store
      var product: String
    }
    var table: [Key: CountsRow] = [:]
    for chain in ledger.chains
    where chain.production && !chain.pending && chain.revocation == nil && chain.supersededBy == nil {
      guard let end = chain.paidThrough, end > t, let product = chain.currentProduct else { continue }
      table[Key(store: chain.store, product: product), default: CountsRow(store: chain.store, productId: product)]
        .chainsPaidThrough += 1
    }
    for e in entitlements where e.isActive(at: t) {
      guard let store = e.source.store else { continue }
      table[Key(store: store, product: e.productId), default: CountsRow(store: store, productId: e.productId)]
        .entitlementsActive += 1
    }
    return table.values.sorted { ($0.store, $0.productId) < ($1.store, $1.productId) }
  }
}
