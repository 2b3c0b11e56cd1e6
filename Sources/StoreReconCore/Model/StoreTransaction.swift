/// One normalised store event, as every importer produces it.
///
/// A `purchase` is a period the store granted (a charge, a renewal, a free trial, a one-time unlock),
/// `refund` is money returned for one order, `void` is Google's voided-purchase record, and `status`
/// is a subscription resource (Play `subscriptionsv2`) that states a chain's current state.
package struct StoreTransaction: Sendable {
  /// What the event is.
  package enum Kind: UInt8, Sendable { case purchase, refund, void, status }

  /// The store the event comes from.
  package var store: Store
  /// What the event is.
  package var kind: Kind
  /// The importer's chain key: Apple `originalTransactionId`; Play purchase token when the record
  /// carries one, else the order id without its `..N` renewal suffix.
  package var chainKey: String
  /// Apple `transactionId`; Play order id as written (`GPA.…..N`); for a Play status, the purchase token.
  package var transactionId: String
  /// Product name as docs/inputs.md#product-names defines it (`com.acme.pro.monthly`, `pro:monthly`, `coins100`).
  package var productId: String
  /// Apple `type` / Play `Product Type`, kept raw; see ``productType``.
  package var productTypeRaw: String = ""
  /// When the event happened: purchase/charge instant, refund instant, void instant, or subscription start.
  package var at: Instant
  /// Apple `originalPurchaseDate`.
  package var originalAt: Instant?
  /// End of the period this purchase grants (Apple `expiresDate`; Play `lineItems[].expiryTime`).
  package var expiresAt: Instant?
  /// Amount in minor units of `currency`: what the customer paid (tax included); 0 for a free trial.
  /// For a refund, the refunded amount as a positive number.
  package var amountMinor: Int64 = 0
  /// Tax included in `amountMinor`, where the export states it.
  package var taxMinor: Int64?
  /// ISO 4217 currency of the amounts; `nil` where the record carries no money (status, void).
  package var currency: Currency?
  /// A free trial (Apple `offerDiscountType` FREE_TRIAL or price 0 with an introductory offer;
  /// Play `offerPhase.freeTrial`).
  package var isTrial: Bool = false
  /// Production, sandbox (Apple Sandbox/Xcode) or test (Play license tester).
  package var environment: Environment = .production
  /// Apple `inAppOwnershipType` FAMILY_SHARED: access through family sharing, not a charge.
  package var familyShared: Bool = false
  /// When the store revoked this purchase (Apple `revocationDate`), if it did.
  package var revokedAt: Instant?
  /// Apple `isUpgraded`.
  package var isUpgraded: Bool = false
  /// The purchase is pending (Play `SUBSCRIPTION_STATE_PENDING`), so no money has moved.
  package var pending: Bool = false
  /// The store gives no grace past the period paid: a Stripe subscription `unpaid`, `canceled`,
  /// `incomplete`, `incomplete_expired` or `paused` (docs/rules.md#stripe).
  package var noGrace: Bool = false
  /// Apple `appAccountToken` or Play `obfuscatedExternalAccountId`: the app's user, where the app set it.
  package var accountToken: String?
  /// Offer identifier (Apple `offerIdentifier`, Play `offerId`).
  package var offerId: String?
  /// Apple `transactionReason` (`PURCHASE`, `RENEWAL`).
  package var reason: String?
  /// The buyer's country as a packed ``CountryCode`` (Apple `storefront`, Play `Country of Buyer`); 0
  /// unknown.
  package var country: UInt16 = 0
  /// Units the purchase counts for (Apple `quantity`, 1–65535); 1 where the store states none.
  package var quantity: UInt16 = 1
  /// Where the record came from.
  package var origin: Origin
  /// Fields most records do not have, kept out of line so that millions of records stay small.
  private var details: Details?

  /// Creates a record with the fields every record has; the rest default to "absent".
  package init(
    store: Store, kind: Kind, chainKey: String, transactionId: String, productId: String, at: Instant,
    origin: Origin
  ) {
    self.store = store
    self.kind = kind
    self.chainKey = chainKey
    self.transactionId = transactionId
    self.productId = productId
    self.at = at
    self.origin = origin
  }

  /// The product type as far as it is known.
  package var productType: ProductType { ProductType(raw: productTypeRaw) }

  /// The out-of-line fields (copy-on-write: records are values).
  final class Details: @unchecked Sendable {
    var storedOrderBaseIds: [String]?
    var latestOrderId: String?
    var purchaseToken: String?
    var linkedChainKey: String?
    var revocationType: String?
    var revocationReason: Int?
    var revocationPercentMilli: Int64?
    var state: String?
    var commitment: Commitment?

    init() {}

    func copy() -> Details {
      let d = Details()
      d.storedOrderBaseIds = storedOrderBaseIds
      d.latestOrderId = latestOrderId
      d.purchaseToken = purchaseToken
      d.linkedChainKey = linkedChainKey
      d.revocationType = revocationType
      d.revocationReason = revocationReason
      d.revocationPercentMilli = revocationPercentMilli
      d.state = state
      d.commitment = commitment
      return d
    }
  }

  private mutating func editDetails(_ edit: (Details) -> Void) {
    if details == nil {
      details = Details()
    } else if !isKnownUniquelyReferenced(&details) {
      details = details?.copy()
    }
    if let details { edit(details) }
  }

  /// Order ids this record names explicitly (a Play resource's `latestSuccessfulOrderId`s), if any.
  package var storedOrderBaseIds: [String]? { details?.storedOrderBaseIds }

  /// Play: every order id this record names, without `..N` (links orders to purchase tokens). For a
  /// sales row or voided purchase it is the base of its own order id unless set otherwise.
  package var orderBaseIds: [String] {
    get {
      if let stored = details?.storedOrderBaseIds { return stored }
      guard kind != .status, PlayOrderId.isOrderId(transactionId) else { return [] }
      return [PlayOrderId.base(transactionId)]
    }
    set { editDetails { $0.storedOrderBaseIds = newValue } }
  }

  /// Play status: the latest successful order id as written (`GPA.…..N`), when the resource names one.
  package var latestOrderId: String? {
    get { details?.latestOrderId }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.latestOrderId = newValue }
    }
  }

  /// Play: the purchase token, when the record has one.
  package var purchaseToken: String? {
    get { details?.purchaseToken }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.purchaseToken = newValue }
    }
  }

  /// Play: `linkedPurchaseToken`, the chain this one replaced.
  package var linkedChainKey: String? {
    get { details?.linkedChainKey }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.linkedChainKey = newValue }
    }
  }

  /// Apple `revocationType` raw (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`).
  package var revocationType: String? {
    get { details?.revocationType }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.revocationType = newValue }
    }
  }

  /// Apple `revocationReason` (0 other, 1 issue in the app).
  package var revocationReason: Int? {
    get { details?.revocationReason }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.revocationReason = newValue }
    }
  }

  /// Apple `revocationPercentage` in milli-percent (50000 = 50 %), with `REFUND_PRORATED`.
  package var revocationPercentMilli: Int64? {
    get { details?.revocationPercentMilli }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.revocationPercentMilli = newValue }
    }
  }

  /// Where the purchase stands in a commitment plan (Apple `commitmentInfo` of a `MONTHLY` billing
  /// plan, Play `installmentDetails`), if it is on one.
  package var commitment: Commitment? {
    get { details?.commitment }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.commitment = newValue }
    }
  }

  /// Play `subscriptionState`, raw.
  package var state: String? {
    get { details?.state }
    set {
      if newValue == nil && details == nil { return }
      editDetails { $0.state = newValue }
    }
  }

}

/// Where an imported record or row came from: which input file (by index in the run) and which line.
package struct Origin: Sendable, Hashable {
  /// Index of the input file in the run's list of inputs.
  package var file: Int32
  /// 1-based line number (for JSON Lines, the line; for CSV, the physical line the row starts on).
  package var line: Int32

  /// Creates an origin.
  package init(file: Int32, line: Int32) {
    self.file = file
    self.line = line
  }
}

/// Store environment of a purchase.
package enum Environment: UInt8, Sendable {
  /// Real money, real customers.
  case production
  /// Apple Sandbox / Xcode / LocalTesting.
  case sandbox
  /// Play license-tester purchase (`testPurchase`).
  case test
}

/// What kind of product a purchase is for.
package enum ProductType: Sendable, Equatable {
  case autoRenewable, nonRenewing, nonConsumable, consumable, unknown

  /// Maps Apple's `type` values and Play's `Product Type` values.
  package init(raw: String) {
    switch raw.lowercased() {
    case "auto-renewable subscription", "subscription", "auto_renewable": self = .autoRenewable
    case "non-renewing subscription", "non_renewable": self = .nonRenewing
    case "non-consumable", "non_consumable", "inapp", "paidapp": self = .nonConsumable
    case "consumable": self = .consumable
    default: self = .unknown
    }
  }
}
