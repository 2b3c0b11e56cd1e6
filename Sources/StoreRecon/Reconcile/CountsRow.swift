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
    let s = ledger.storage
    var table = EntitlementTable(pool: s.pool, products: s.products)
    for e in entitlements { table.append(e) }
    return rows(ledger: ledger, entitlements: table, asOf: t)
  }

  /// The counts table from packed entitlements, sorted by store then product.
  public static func rows(ledger: Ledger, entitlements: EntitlementTable, asOf t: Instant) -> [CountsRow] {
    struct Key: Hashable {
      var store: Store
      var product: UInt32
    }
    let s = ledger.storage
    let entitlements = entitlements.sharing(pool: s.pool, products: s.products)
    var table: [Key: CountsRow] = [:]
    for chain in s.chains where chain.production && !chain.pending && !chain.revoked && chain.supersededBy < 0
    {
      guard chain.paidThrough != PackedRecord.none, chain.paidThrough > t.ms,
        chain.currentProduct != UInt32.max
      else { continue }
      let key = Key(store: chain.store, product: chain.currentProduct)
      table[key, default: CountsRow(store: chain.store, productId: s.products.names[Int(key.product)])]
        .chainsPaidThrough += 1
    }
    for e in entitlements.rows where e.isActive(at: t.ms) {
      guard let store = e.source.store else { continue }
      let key = Key(store: store, product: e.product)
      table[key, default: CountsRow(store: store, productId: s.products.names[Int(e.product)])]
        .entitlementsActive += 1
    }
    return table.values.sorted { ($0.store, $0.productId) < ($1.store, $1.productId) }
  }
}
