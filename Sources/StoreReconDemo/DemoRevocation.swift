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
    /// Play `Refund` row in the sales report.
    case playRefundRow
    /// Play voided-purchase record.
    case playVoid
    /// Play `Refund` row and voided-purchase record both.
    case playRefundAndVoid
  }

  var kind: Kind
  /// Revocation, refund or void instant.
  var at: Instant
}
