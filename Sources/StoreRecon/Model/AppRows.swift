/// Where an app row's access comes from (`entitlements.source`).
public enum EntitlementSource: String, Sendable, CaseIterable {
  case appStore = "app_store", play, stripe, goodwill, promo, manual

  /// The store behind a store-sourced entitlement; `nil` for goodwill, promo and manual grants.
  public var store: Store? {
    switch self {
    case .appStore: return .appStore
    case .play: return .play
    case .stripe: return .stripe
    case .goodwill, .promo, .manual: return nil
    }
  }
}

/// The app's access state for an entitlement (`entitlements.status`).
public enum EntitlementStatus: String, Sendable, CaseIterable {
  case active, grace, billingRetry = "billing_retry", onHold = "on_hold", paused, expired, revoked
}

/// One row of the entitlements contract.
public struct Entitlement: Sendable {
  public var entitlementId: String
  public var userId: String
  public var productId: String
  public var source: EntitlementSource
  /// The store purchase the entitlement names (chain key, or for Play any order id of the chain).
  public var storeKey: String?
  public var status: EntitlementStatus
  public var startsAt: Instant?
  /// `nil`: no end (lifetime unlock).
  public var expiresAt: Instant?
  public var updatedAt: Instant?
  public var origin: Origin

  /// Creates an entitlement row.
  public init(
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
  public func isActive(at t: Instant) -> Bool {
    guard status == .active || status == .grace else { return false }
    guard let end = expiresAt else { return true }
    return end > t
  }
}

/// One row of the credentials contract: a user claimed a store purchase.
public struct Credential: Sendable {
  public var store: Store
  public var storeKey: String
  public var userId: String
  public var linkedStoreKey: String?
  public var orderId: String?
  public var claimedAt: Instant?
  public var origin: Origin

  /// Creates a credential row.
  public init(
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
public struct Assignment: Sendable {
  public var userId: String
  public var experimentId: String
  public var armId: String
  public var assignedAt: Instant
  public var origin: Origin

  /// Creates an assignment row.
  public init(userId: String, experimentId: String, armId: String, assignedAt: Instant, origin: Origin) {
    self.userId = userId
    self.experimentId = experimentId
    self.armId = armId
    self.assignedAt = assignedAt
    self.origin = origin
  }
}

/// One row of the goodwill contract: access support granted on purpose.
public struct GoodwillGrant: Sendable {
  public var grantId: String
  public var userId: String
  public var productId: String
  public var startsAt: Instant?
  public var endsAt: Instant?
  public var reason: String
  public var origin: Origin

  /// Creates a goodwill grant row.
  public init(
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
