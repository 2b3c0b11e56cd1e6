package import StoreReconCore

/// Every field of a store record, and of the chains of a ledger, as text — for the differential tests,
/// which must see a difference in any field (a record's `String(describing:)` does not show the fields
/// kept in its side storage). Text is compared as bytes, not as `String`s (which compare canonically
/// equivalent texts equal).
package enum RecordText {
  /// Every field of `t`, the side fields included.
  package static func describe(_ t: StoreTransaction) -> String {
    func o<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "-" }
    let fields: [String] = [
      "\(t.store)", "\(t.kind)", t.chainKey, t.transactionId, t.productId, t.productTypeRaw, "\(t.at.ms)",
      o(t.originalAt?.ms), o(t.expiresAt?.ms), "\(t.amountMinor)", o(t.taxMinor), o(t.currency?.code),
      "trial \(t.isTrial)", "\(t.environment)", "family \(t.familyShared)", o(t.revokedAt?.ms),
      "upgraded \(t.isUpgraded)", "pending \(t.pending)", o(t.accountToken), o(t.offerId), o(t.reason),
      "country \(t.country)", "quantity \(t.quantity)", t.orderBaseIds.joined(separator: "+"),
      o(t.latestOrderId),
      o(t.purchaseToken), o(t.linkedChainKey), o(t.revocationType), o(t.revocationReason),
      o(t.revocationPercentMilli), o(t.state),
    ]
    return fields.joined(separator: " | ")
  }

  /// Every chain of `ledger` with all its records (``describe(_:)``-exact).
  package static func describe(_ ledger: Ledger) -> String {
    ledger.chains.map { chain in
      let records = chain.purchases + chain.refunds + chain.voids + (chain.status.map { [$0] } ?? [])
      let head: [String] = [
        "\(chain.store)", chain.key, "\(String(describing: chain.paidThrough))",
        "\(String(describing: chain.revocation))", "\(String(describing: chain.currentProduct))",
        "\(chain.production)", "\(chain.pending)", "\(chain.paidCharges)",
        "\(String(describing: chain.accountToken))",
        "\(String(describing: chain.originalPurchaseAt))",
      ]
      return (head + records.map { "[" + describe($0) + "]" }).joined(separator: " ")
    }.joined(separator: "\n")
  }

  /// The ledger one batch makes (as of the rule tests' T), described.
  package static func describe(_ batch: RecordBatch) -> String {
    let builder = LedgerBuilder()
    builder.merge(batch)
    return describe(builder.build(asOf: Fx.t, catalog: Catalog()))
      + " first \(batch.firstAt) last \(batch.lastAt)"
  }

  /// Whether two descriptions are the same bytes.
  package static func same(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }
}
