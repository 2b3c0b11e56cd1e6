import StoreReconPlatform

/// Per store × product: chains the store says are paid through T against the app's active entitlements.
package struct CountsRow: Sendable, Equatable {
  /// The store and product of the row.
  package var store: Store
  /// The product id (the store's).
  package var productId: String
  /// Production, non-pending chains not refunded or superseded whose paid-through is after T.
  package var chainsPaidThrough: Int = 0
  /// Store-sourced entitlements of that store and product active at T.
  package var entitlementsActive: Int = 0
  /// The store's own report of the report day: its paid units (charges less refunds, priced units
  /// only) of the product; `nil` when no report of the store covers the day.
  package var reportPaidUnits: Int64?
  /// The day of that report (App Store: the latest Summary Sales report day over by T; Play: the
  /// report date, UTC).
  package var reportDay: CivilDate?
  /// The differences named in words (empty when the three agree as far as they can be compared).
  package var detail: String = ""

  /// `entitlementsActive − chainsPaidThrough`: positive means more access than paid periods.
  package var difference: Int { entitlementsActive - chainsPaidThrough }

  /// Creates an empty row.
  package init(store: Store, productId: String) {
    self.store = store
    self.productId = productId
  }

  /// The counts table, sorted by store then product.
  package static func rows(ledger: Ledger, entitlements: [Entitlement], asOf t: Instant) -> [CountsRow] {
    let s = ledger.storage
    var table = PackedEntitlements(pool: s.pool, products: s.products)
    for e in entitlements { table.append(e) }
    return rows(ledger: ledger, entitlements: table, asOf: t)
  }

  /// The counts table from packed entitlements, sorted by store then product.
  package static func rows(ledger: Ledger, entitlements: PackedEntitlements, asOf t: Instant) -> [CountsRow] {
    let s = ledger.storage
    let entitlements = entitlements.sharing(pool: s.pool, products: s.products)
    let stores = Store.allCases.count
    let products = s.products.names.count
    // Counts by store slot × product name number, on all cores, added up in part order.
    let chainCount = s.chains.count
    let rowCount = entitlements.rows.count
    let (paid, active) = Parallel.pair(
      {
        Parallel.map(chainCount, .even(minimum: 200_000)) { range -> [Int] in
          var counts = [Int](repeating: 0, count: stores * products)
          let chains = s.chains
          for c in range {
            let chain = chains[c]
            guard chain.production && !chain.pending && !chain.revoked && chain.supersededBy < 0,
              chain.paidThrough != PackedRecord.none, chain.paidThrough > t.ms,
              chain.currentProduct != UInt32.max
            else { continue }
            counts[LedgerStorage.slot(chain.store) * products + Int(chain.currentProduct)] += 1
          }
          return counts
        }
      },
      {
        Parallel.map(rowCount, .even(minimum: 200_000)) { range -> [Int] in
          var counts = [Int](repeating: 0, count: stores * products)
          let rows = entitlements.rows
          for i in range where rows[i].isActive(at: t.ms) {
            guard let store = rows[i].source.store else { continue }
            counts[LedgerStorage.slot(store) * products + Int(rows[i].product)] += 1
          }
          return counts
        }
      })
    var table: [CountsRow] = []
    for store in Store.allCases {
      let slot = LedgerStorage.slot(store)
      for product in 0..<products {
        let k = slot * products + product
        let chains = paid.reduce(0) { $0 + $1[k] }
        let entitled = active.reduce(0) { $0 + $1[k] }
        guard chains > 0 || entitled > 0 else { continue }
        var row = CountsRow(store: store, productId: s.products.names[product])
        row.chainsPaidThrough = chains
        row.entitlementsActive = entitled
        table.append(row)
      }
    }
    return table.sorted { ($0.store, $0.productId) < ($1.store, $1.productId) }
  }
}
