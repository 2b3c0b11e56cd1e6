import StoreReconCore

/// One purchase of a chain: a period the store granted (trial, charge, renewal, one-time unlock).
struct DemoPeriod {
  /// What was bought.
  var product: DemoProduct
  /// Purchase (charge) instant.
  var start: Instant
  /// End of the period; `nil` for one-time products.
  var end: Instant?
  /// A free trial (price 0).
  var isTrial = false
  /// Consumable quantity.
  var quantity = 1
  /// Customer price of the purchase in minor units (quantity included; 0 for trials).
  var priceMinor: Int64
  /// Apple `isUpgraded`: the user moved to another product; the next purchase of the chain replaces it.
  var isUpgraded = false
  /// Apple `transactionId`.
  var transactionId = ""
  /// Apple `webOrderLineItemId`.
  var webOrderLineItemId = ""
  /// Play order id (`GPA.…`, renewals `..N`).
  var orderId = ""
  /// The store took this purchase back, and how.
  var revocation: DemoRevocation?
  /// Apple `commitmentInfo` of a monthly payment of a 12-month commitment (`billingPlanType` `MONTHLY`).
  var commitment: DemoCommitment?

  /// The state the transaction feed's copy was read in: the revocation where the feed carries it;
  /// else the reversal the feed was read after, or the purchase it was read after (a refund only a
  /// REFUND notification carries).
  var feedState: Instant {
    guard let revocation else { return start }
    return revocation.inFeed ? revocation.at : (revocation.reversedAt ?? start)
  }

  /// Is this purchase revoked at or before `t`?
  func isRevoked(at t: Instant) -> Bool {
    revocation?.isEffective(at: t) ?? false
  }
}

/// Where a payment stands in an App Store monthly subscription with a 12-month commitment.
struct DemoCommitment {
  /// `billingPeriodNumber` (1-based).
  var number: Int
  /// `totalBillingPeriods`.
  var total: Int
  /// `commitmentExpiresDate`.
  var endsAt: Instant
  /// `commitmentPrice` in minor units: every payment of the commitment.
  var priceMinor: Int64
}
