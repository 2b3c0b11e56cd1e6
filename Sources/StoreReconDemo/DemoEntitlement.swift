import StoreReconCore

/// One row the demo writes to `app/entitlements.csv`.
struct DemoEntitlement {
  var entitlementId: String
  var userId: String
  var productId: String
  var source: EntitlementSource
  /// Chain key (or, for Play, an order id of the chain); `nil` for goodwill and promo grants.
  var storeKey: String?
  var status: EntitlementStatus
  var startsAt: Instant
  /// `nil`: no end.
  var expiresAt: Instant?
  var updatedAt: Instant

  /// Active at `t` per docs/rules.md#terms: `active` or `grace`, and no end or an end after `t`.
  func isActive(at t: Instant) -> Bool {
    guard status == .active || status == .grace else { return false }
    return expiresAt.map { $0 > t } ?? true
  }
}
