/// Where an app row's access comes from (`entitlements.source`).
package enum EntitlementSource: String, Sendable, CaseIterable {
  case appStore = "app_store", play, stripe, goodwill, promo, manual

  /// The store behind a store-sourced entitlement; `nil` for goodwill, promo and manual grants.
  package var store: Store? {
    switch self {
    case .appStore: return .appStore
    case .play: return .play
    case .stripe: return .stripe
    case .goodwill, .promo, .manual: return nil
    }
  }
}

/// The app's access state for an entitlement (`entitlements.status`).
package enum EntitlementStatus: String, Sendable, CaseIterable {
  case active, grace, billingRetry = "billing_retry", onHold = "on_hold", paused, expired, revoked
}

/// One row of the entitlements contract.
package struct Entitlement: Sendable {
  package var entitlementId: String
  package var userId: String
  package var productId: String
  package var source: EntitlementSource
  /// The store purchase the entitlement names (chain key, or for Play any order id of the chain).
  package var storeKey: String?
  package var status: EntitlementStatus
  package var startsAt: Instant?
  /// `nil`: no end (lifetime unlock).
  package var expiresAt: Instant?
  package var updatedAt: Instant?
  package var origin: Origin

  /// Creates an entitlement row.
  package init(
    entitlementId: String, userId: String, productId: String, source: EntitlementSource, storeKey: String?,
    status: EntitlementStatus, startsAt: Instant?, expiresAt: Instant?, updatedAt: Instant?, origin: Origin
  ) {
    self.entitlementId = entitlementId
    self.userId = userId
    self.productId = productId
    self.source = source
    self.storeKey = storeKey
    self.status = status
    self.startsAt = startsAt
    self.expiresAt = expiresAt
    self.updatedAt = updatedAt
    self.origin = origin
  }

  /// Active at `t`: status `active` or `grace`, and no end or an end later than `t`.
  package func isActive(at t: Instant) -> Bool {
    guard status == .active || status == .grace else { return false }
    guard let end = expiresAt else { return true }
    return end > t
  }
}

/// One row of the credentials contract: a user claimed a store purchase.
package struct Credential: Sendable {
  package var store: Store
  package var storeKey: String
  package var userId: String
  package var linkedStoreKey: String?
  package var orderId: String?
  package var claimedAt: Instant?
  package var origin: Origin

  /// Creates a credential row.
  package init(
    store: Store, storeKey: String, userId: String, linkedStoreKey: String?, orderId: String?,
    claimedAt: Instant?, origin: Origin
  ) {
    self.store = store
    self.storeKey = storeKey
    self.userId = userId
    self.linkedStoreKey = linkedStoreKey
    self.orderId = orderId
    self.claimedAt = claimedAt
    self.origin = origin
  }
}

/// One row of the assignments contract: a user was put in an arm of a price experiment.
package struct Assignment: Sendable {
  package var userId: String
  package var experimentId: String
  package var armId: String
  package var assignedAt: Instant
  package var origin: Origin

  /// Creates an assignment row.
  package init(userId: String, experimentId: String, armId: String, assignedAt: Instant, origin: Origin) {
    self.userId = userId
    self.experimentId = experimentId
    self.armId = armId
    self.assignedAt = assignedAt
    self.origin = origin
  }
}

/// One row of the goodwill contract: access support granted on purpose.
package struct GoodwillGrant: Sendable {
  package var grantId: String
  package var userId: String
  package var productId: String
  package var startsAt: Instant?
  package var endsAt: Instant?
  package var reason: String
  package var origin: Origin

  /// Creates a goodwill grant row.
  package init(
    grantId: String, userId: String, productId: String, startsAt: Instant?, endsAt: Instant?, reason: String,
    origin: Origin
  ) {
    self.grantId = grantId
    self.userId = userId
    self.productId = productId
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.reason = reason
    self.origin = origin
  }
}
