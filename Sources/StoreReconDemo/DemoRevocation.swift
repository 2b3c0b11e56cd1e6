import StoreReconCore

/// How the store took one purchase back.
struct DemoRevocation {
  /// The store's mechanism.
  enum Kind: Equatable {
    /// Apple `REFUND_FULL`.
    case refundFull
    /// Apple `REFUND_PRORATED` with `revocationPercentage` in milli-percent.
    case refundProrated(Int64)
    /// Apple `FAMILY_REVOKE` (family sharing removed).
    case familyRevoke
    /// Play `Refund` row in the sales report (and the earnings report's `Charge refund` in its month).
    case playRefundRow
    /// Play voided-purchase record.
    case playVoid
    /// Play `Refund` row and voided-purchase record both.
    case playRefundAndVoid
    /// Play `Refund` row in the sales report that the earnings report of its month lacks.
    case playRefundRowOnly
    /// Play earnings `Charge refund` only: a one-time product refunded in Play Console, which neither
    /// the sales report nor the voided-purchases list shows.
    case playEarningsRefund

    /// Whether the Play sales report has a `Refund` row of it.
    var hasSalesRefundRow: Bool {
      self == .playRefundRow || self == .playRefundAndVoid || self == .playRefundRowOnly
    }
  }

  var kind: Kind
  /// Revocation, refund or void instant.
  var at: Instant
  /// Apple: the transaction feed carries the revocation (`revocationDate`); `false`: only the REFUND
  /// notification's transaction does.
  var inFeed = true
  /// Apple: a REFUND_REVERSED notification signed at this instant undid the refund.
  var reversedAt: Instant?

  /// Is the purchase taken back at `t`: revoked at or before `t`, and not reversed since by `t`?
  func isEffective(at t: Instant) -> Bool {
    guard at <= t else { return false }
    guard let reversedAt, reversedAt <= t, reversedAt >= at else { return true }
    return false
  }
}
