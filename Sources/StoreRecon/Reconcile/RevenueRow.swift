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
  public static func rows(ledger: Ledger, dayOf: (Instant) -> CivilDate, rounding: RoundingRule = .halfEven) -> [RevenueRow] {
    struct Key: Hashable {
      var day: CivilDate
      var store: Store
      var product: String
      var currency: Currency
    }
    var table: [Key: RevenueRow] = [:]
    func add(_ record: StoreTransaction, at: Instant, update: (inout RevenueRow) -> Void) {
      guard let currency = record.currency else { return }
      let key = Key(day: dayOf(at), store: record.store, product: record.productId, currency: currency)
      update(&table[key, default: RevenueRow(day: key.day, store: key.store, productId: key.product, currency: currency)])
    }
    let t = ledger.asOf
    for chain in ledger.chains where chain.production && !chain.pending {
      for purchase in chain.purchases
      where purchase.environment == .production && !purchase.familyShared && purchase.amountMinor > 0 {
        add(purchase, at: purchase.at) { row in
          row.charges += 1
          row.grossMinor += purchase.amountMinor
          row.taxMinor += purchase.taxMinor ?? 0
        }
        // App Store refunds are revocations of the purchase itself.
        if let at = purchase.revokedAt, at <= t, chain.store != .play {
          let type = purchase.revocationType?.uppercased()
          guard type != "FAMILY_REVOKE" else { continue }
          if purchase.isUpgraded && type == nil && purchase.revocationReason == nil { continue }
          var refunded = purchase.amountMinor
          if type == "REFUND_PRORATED", let milli = purchase.revocationPercentMilli {
            refunded = rounding.scale(purchase.amountMinor, numerator: milli, denominator: 100_000)
          }
          add(purchase, at: at) { row in
            row.refundsMinor += refunded
            row.refundCount += 1
          }
        }
      }
      for refund in chain.refunds where refund.environment == .production {
        add(refund, at: refund.at) { row in
          row.refundsMinor += refund.amountMinor
          row.refundCount += 1
        }
      }
    }
    return table.values.sorted {
      ($0.day, $0.store, $0.productId, $0.currency) < ($1.day, $1.store, $1.productId, $1.currency)
    }
  }
}
