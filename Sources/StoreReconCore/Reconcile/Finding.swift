import StoreReconPlatform

/// One finding: a chain or entitlement where what the store charged and who has access disagree.
package struct Finding: Sendable, Equatable {
  /// The families of findings.
  package enum Kind: String, Sendable, CaseIterable, Comparable {
    case orphanedCharge = "orphaned_charge"
    case freeEntitlement = "free_entitlement"
    case duplicateClaim = "duplicate_claim"
    /// A paid consumable purchase no credit row names (docs/rules.md#uncredited_purchasenot_credited).
    case uncreditedPurchase = "uncredited_purchase"
    /// A purchase credited twice, or with more units than the catalog says.
    case doubleCredit = "double_credit"
    /// A refunded consumable purchase whose credit stands.
    case creditNotReversed = "credit_not_reversed"
    /// A credit naming no store purchase (or a sandbox one).
    case orphanCredit = "orphan_credit"
    /// One person paying twice for one tier at the same time.
    case doubleBilling = "double_billing"
    /// A store notification received and never processed (docs/rules.md#notification-health).
    case notificationUnprocessed = "notification_unprocessed"
    /// A notification processed whose effect the entitlement row does not show.
    case notificationNotApplied = "notification_not_applied"
    /// A notification in the store's history that the app's log never received (a lost webhook).
    case notificationMissing = "notification_missing"

    /// Kinds order by their names.
    package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Why the finding was raised (docs/rules.md).
  package enum Reason: String, Sendable, CaseIterable, Comparable {
    case unclaimed, lockedOut = "locked_out"
    case noStoreRecord = "no_store_record", sandbox, refunded, superseded, storeExpired = "store_expired"
    case overextended, productMismatch = "product_mismatch"
    case multipleUsers = "multiple_users"
    case notCredited = "not_credited"
    case creditedTwice = "credited_twice", overCredited = "over_credited"
    case refundNotReversed = "refund_not_reversed"
    case unknownTransaction = "unknown_transaction", sandboxCredit = "sandbox_credit"
    case acrossStores = "across_stores", withinStore = "within_store"
    case unprocessed
    case revocationNotApplied = "revocation_not_applied", expiryNotApplied = "expiry_not_applied"
    case renewalNotApplied = "renewal_not_applied"
    case neverReceived = "never_received"

    /// Reasons order by their names.
    package static func < (lhs: Reason, rhs: Reason) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The kind this reason belongs to.
    package var kind: Kind {
      switch self {
      case .unclaimed, .lockedOut: return .orphanedCharge
      case .multipleUsers: return .duplicateClaim
      case .notCredited: return .uncreditedPurchase
      case .creditedTwice, .overCredited: return .doubleCredit
      case .refundNotReversed: return .creditNotReversed
      case .unknownTransaction, .sandboxCredit: return .orphanCredit
      case .acrossStores, .withinStore: return .doubleBilling
      case .unprocessed: return .notificationUnprocessed
      case .revocationNotApplied, .expiryNotApplied, .renewalNotApplied: return .notificationNotApplied
      case .neverReceived: return .notificationMissing
      default: return .freeEntitlement
      }
    }
  }

  /// Stable across runs: a hash of kind, store, chain key and user.
  package var key: String
  /// The family of the finding, and why it was raised.
  package var kind: Kind
  /// Why the finding was raised.
  package var reason: Reason
  /// The store of the chain or entitlement.
  package var store: Store
  /// The chain key (or the key the entitlement names), as the store writes it.
  package var chainKey: String
  /// The app's user (empty where no user claims the chain).
  package var userId: String
  /// The product id (the store's).
  package var productId: String
  /// Currency of `amountMinor`; `nil` where no amount is known.
  package var currency: Currency?
  /// Money at stake in minor units; `nil` where the store data states none.
  package var amountMinor: Int64?
  /// First run date that saw this finding, where run history is kept.
  package var since: String?
  /// A sentence a person can act on.
  package var detail: String
  /// Whether the money at stake did not fit an `Int64`: the run stops with exit 65 rather than write it
  /// (docs/inputs.md#amounts-beyond-the-bound). Never written.
  package var overflowed = false
  /// The store notification the finding is about (the notification-health kinds), else `nil`.
  package var notificationId: String?

  /// Creates a finding; its key is derived from kind, store, chain key and user.
  package init(
    reason: Reason, store: Store, chainKey: String, userId: String, productId: String, currency: Currency?,
    amountMinor: Int64?, detail: String
  ) {
    self.kind = reason.kind
    self.reason = reason
    self.store = store
    self.chainKey = chainKey
    self.userId = userId
    self.productId = productId
    self.currency = currency
    self.amountMinor = amountMinor
    self.detail = detail
    self.key = Finding.key(kind: reason.kind, store: store, chainKey: chainKey, userId: userId)
  }

  /// The stable finding key: the first 16 hex digits of SHA-256 over `kind|store|chain|user`.
  package static func key(kind: Kind, store: Store, chainKey: String, userId: String) -> String {
    let digest = SHA256Digest.hex(of: Array("\(kind.rawValue)|\(store.rawValue)|\(chainKey)|\(userId)".utf8))
    return String(digest.prefix(16))
  }

  /// Report order: kind, reason, store, chain key, user, key.
  package static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
    (a.kind, a.reason, a.store, a.chainKey, a.userId, a.key) < (
      b.kind, b.reason, b.store, b.chainKey, b.userId, b.key
    )
  }

  /// `findings` sorted by ``reportOrder(_:_:)``; equal findings keep their order. The findings are not
  /// moved while sorting: their positions are, by a key that ranks kind, reason and store as one number.
  package static func sortedInReportOrder(_ findings: [Finding]) -> [Finding] {
    let kinds = Kind.allCases.sorted()
    let reasons = Reason.allCases.sorted()
    let stores = Store.allCases.sorted()
    let ranks = findings.map { f -> Int in
      let kind = kinds.firstIndex(of: f.kind) ?? 0
      let reason = reasons.firstIndex(of: f.reason) ?? 0
      let store = stores.firstIndex(of: f.store) ?? 0
      return (kind * reasons.count + reason) * stores.count + store
    }
    var order = Array(findings.indices)
    order.sort { a, b in
      if ranks[a] != ranks[b] { return ranks[a] < ranks[b] }
      let x = findings[a]
      let y = findings[b]
      if x.chainKey != y.chainKey { return x.chainKey < y.chainKey }
      if x.userId != y.userId { return x.userId < y.userId }
      if x.key != y.key { return x.key < y.key }
      return a < b
    }
    return order.map { findings[$0] }
  }
}
