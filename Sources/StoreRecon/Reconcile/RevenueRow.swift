/// Revenue of one store × product × currency × day: what finance ties to the stores' consoles.
public struct RevenueRow: Sendable, Equatable {
  public var day: CivilDate
  public var store: Store
  public var productId: String
  public var currency: Currency
  /// Number of production paid charges.
  public var charges: Int = 0
  /// What customers paid, tax included, in minor units.
  public var grossMinor: Int64 = 0
  /// Tax included in gross, where the export states it (Play); 0 where it does not (App Store JWS).
  public var taxMinor: Int64 = 0
  /// Money returned to customers that day, in minor units (positive).
  public var refundsMinor: Int64 = 0
  /// Number of refunds that day.
  public var refundCount: Int = 0

  /// Creates an empty row.
  public init(day: CivilDate, store: Store, productId: String, currency: Currency) {
    self.day = day
    self.store = store
    self.productId = productId
    self.currency = currency
  }
}

/// Builds the revenue table from a ledger.
public enum Revenue {
  /// Revenue per day (as `dayOf` buckets instants), store, product and currency, sorted by those keys.
  ///
  /// Charges count on their charge day, refunds on their refund day. Sandbox, test, pending and Family
  /// Sharing records move no money and are left out; an Apple prorated refund counts its share of the
  /// price, rounded half-even. Play voided records carry no amount: Play refunds come from the sales
  /// report's `Refund` rows only.
  public static func rows(ledger: Ledger, dayOf: (Instant) -> CivilDate, rounding: RoundingRule = .halfEven)
    -> [RevenueRow]
  {
    struct Key: Hashable {
      var day: CivilDate
      var store: Store
      var product: UInt32
      var currency: UInt16
    }
    let s = ledger.storage
    // Chains in parts on all cores, one table each, summed in part order (sums do not depend on order).
    let parts = Parallel.parts(for: s.chains.count, minimum: 50_000)
    let tables = Parallel.map(parts: parts) { part -> [Key: RevenueRow] in
      var table: [Key: RevenueRow] = [:]
      func add(_ r: PackedRecord, store: Store, at: Int64, update: (inout RevenueRow) -> Void) {
        guard let currency = r.currencyValue else { return }
        let key = Key(
          day: dayOf(Instant(ms: at)), store: store, product: s.products.nameID(ofVariant: r.variant),
          currency: r.currency)
        update(
          &table[
            key,
            default: RevenueRow(
              day: key.day, store: store, productId: s.products.names[Int(key.product)], currency: currency)
          ])
      }
      let t = ledger.asOf.ms
      for c in Parallel.range(part, of: parts, count: s.chains.count) {
        let chain = s.chains[c]
        guard chain.production && !chain.pending else { continue }
        for k in s.purchases(c) {
          let n = Int(s.order[k])
          let purchase = s.records[n]
          guard purchase.isProduction && !purchase.isFamilyShared && purchase.amount > 0 else { continue }
          let tax = s.tax(n)
          add(purchase, store: chain.store, at: purchase.at) { row in
            row.charges += 1
            row.grossMinor += purchase.amount
            row.taxMinor += tax
          }
          // App Store refunds are revocations of the purchase itself.
          if let rare = s.rareFields(n), let at = rare.revokedAt, at.ms <= t, chain.store != .play {
            let type = rare.revocationTypeUpper
            guard type != "FAMILY_REVOKE" else { continue }
            if purchase.isUpgraded && type == nil && rare.revocationReason == nil { continue }
            var refunded = purchase.amount
            if type == "REFUND_PRORATED", let milli = rare.revocationPercentMilli {
              refunded = rounding.scale(purchase.amount, numerator: milli, denominator: 100_000)
            }
            add(purchase, store: chain.store, at: at.ms) { row in
              row.refundsMinor += refunded
              row.refundCount += 1
            }
          }
        }
        for k in s.refunds(c) {
          let refund = s.record(at: k)
          guard refund.isProduction else { continue }
          add(refund, store: chain.store, at: refund.at) { row in
            row.refundsMinor += refund.amount
            row.refundCount += 1
          }
        }
      }
      return table
    }
    var table: [Key: RevenueRow] = [:]
    for part in tables {
      for (key, row) in part {
        guard var sum = table[key] else {
          table[key] = row
          continue
        }
        sum.charges += row.charges
        sum.grossMinor += row.grossMinor
        sum.taxMinor += row.taxMinor
        sum.refundsMinor += row.refundsMinor
        sum.refundCount += row.refundCount
        table[key] = sum
      }
    }
    MemDebug.note("revenue")
    return table.values.sorted {
      ($0.day, $0.store, $0.productId, $0.currency) < ($1.day, $1.store, $1.productId, $1.currency)
    }
  }
}
