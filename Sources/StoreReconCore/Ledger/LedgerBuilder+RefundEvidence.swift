extension LedgerBuilder {
  /// Applies ``refundEvidence`` to the records before the chains are derived as of `t`: an App Store
  /// transaction whose refund a REFUND_REVERSED notification signed at or before T (and not before
  /// the refund) reversed is no longer revoked; the Play orders an earnings report refunded, and the
  /// App Store transactions a REFUND notification names, are noted for the derivation
  /// (docs/rules.md#free_entitlementrefunded).
  func applyRefundEvidence(asOf t: Int64) {
    let evidence = refundEvidence
    guard !evidence.isEmpty else { return }
    let pool = storage.pool
    func compact(_ text: String) -> CompactID? {
      guard let id = PackedID.find(text, in: pool) else { return nil }
      return CompactID.known(id, in: pool)
    }
    var returns: [CompactID: Int64] = [:]
    for (order, at) in evidence.playEarnings where at.ms <= t {
      guard let id = compact(order) else { continue }
      returns[id] = min(returns[id] ?? at.ms, at.ms)
    }
    storage.earningsReturns = returns
    var reversals: [CompactID: Int64] = [:]
    var sources: [CompactID: [String]] = [:]
    for (transaction, notices) in evidence.apple {
      guard let id = compact(transaction) else { continue }
      if let at = notices.reversedAt, at.ms <= t { reversals[id] = at.ms }
      if !notices.refundSources.isEmpty, (notices.refundedAt?.ms ?? Int64.min) <= t {
        sources[id] = notices.refundSources
      }
    }
    storage.noticeSources = sources
    guard !reversals.isEmpty else { return }
    for (n, fields) in storage.rare {
      guard let revoked = fields.revokedAt, let reversed = reversals[storage.records[n].tx],
        reversed >= revoked.ms
      else { continue }
      // The revocation goes; every other side field (a tax, a commitment) stays.
      var kept = fields
      (kept.revokedAt, kept.revocationType, kept.revocationReason) = (nil, nil, nil)
      (kept.revocationPercentMilli, kept.revocationTypeUpper) = (nil, nil)
      storage.rare[n] = kept
    }
  }
}
