package import StoreReconCore

/// Small builders for chains and app rows, so each rule test states only what matters to it.
package enum Fx {
  package static let usd = Currency.named("USD")!
  package static let eur = Currency.named("EUR")!
  /// T used by the rule tests: the end of 2026-11-29 UTC.
  package static let t = Instant.parseISO8601("2026-11-30T00:00:00Z")!
  package static let origin = Origin(file: 0, line: 1)

  package static func at(_ text: String) -> Instant { Instant.parseISO8601(text)! }
  package static func days(_ n: Int64) -> Int64 { n * Instant.msPerDay }

  package static func apple(
    _ id: String, original: String, product: String = "com.acme.pro.monthly", at: Instant, expires: Instant?,
    price: Int64 = 499, sandbox: Bool = false, family: Bool = false, revokedAt: Instant? = nil,
    revocationType: String? = nil, percent: Int64? = nil, upgraded: Bool = false,
    type: String = "Auto-Renewable Subscription"
  ) -> StoreTransaction {
    var r = StoreTransaction(
      store: .appStore, kind: .purchase, chainKey: original, transactionId: id, productId: product, at: at,
      origin: origin)
    r.expiresAt = expires
    r.amountMinor = price
    r.currency = usd
    r.environment = sandbox ? .sandbox : .production
    r.familyShared = family
    r.revokedAt = revokedAt
    r.revocationType = revocationType
    r.revocationPercentMilli = percent
    if revokedAt != nil && revocationType == nil && !upgraded { r.revocationReason = 0 }
    r.isUpgraded = upgraded
    r.productTypeRaw = type
    return r
  }

  package static func playCharge(
    _ order: String, at: Instant, product: String = "pro:monthly", amount: Int64 = 499, tax: Int64 = 80
  )
    -> StoreTransaction
  {
    var r = StoreTransaction(
      store: .play, kind: .purchase, chainKey: PlayOrderId.base(order), transactionId: order,
      productId: product, at: at,
      origin: origin)
    r.orderBaseIds = [PlayOrderId.base(order)]
    r.amountMinor = amount
    r.taxMinor = tax
    r.currency = eur
    r.productTypeRaw = "subscription"
    return r
  }

  package static func playRefund(_ order: String, at: Instant, amount: Int64 = 499) -> StoreTransaction {
    var r = playCharge(order, at: at, amount: amount, tax: 0)
    r.kind = .refund
    return r
  }

  package static func playStatus(
    token: String, latestOrder: String, start: Instant, expiry: Instant, product: String = "pro:monthly",
    linked: String? = nil, test: Bool = false, pending: Bool = false
  ) -> StoreTransaction {
    var r = StoreTransaction(
      store: .play, kind: .status, chainKey: token, transactionId: token, productId: product, at: start,
      origin: origin)
    r.purchaseToken = token
    r.orderBaseIds = [PlayOrderId.base(latestOrder)]
    r.latestOrderId = latestOrder
    r.expiresAt = expiry
    r.linkedChainKey = linked
    r.environment = test ? .test : .production
    r.pending = pending
    r.state = pending ? "SUBSCRIPTION_STATE_PENDING" : "SUBSCRIPTION_STATE_ACTIVE"
    r.productTypeRaw = "subscription"
    return r
  }

  package static func playVoid(token: String?, order: String, at: Instant) -> StoreTransaction {
    var r = StoreTransaction(
      store: .play, kind: .void, chainKey: token ?? PlayOrderId.base(order), transactionId: order,
      productId: "", at: at,
      origin: origin)
    r.purchaseToken = token
    r.orderBaseIds = [PlayOrderId.base(order)]
    return r
  }

  package static func ent(
    _ id: String, user: String, product: String = "com.acme.pro.monthly",
    source: EntitlementSource = .appStore,
    key: String?, status: EntitlementStatus = .active, starts: Instant? = nil, expires: Instant?
  ) -> Entitlement {
    Entitlement(
      entitlementId: id, userId: user, productId: product, source: source, storeKey: key, status: status,
      startsAt: starts, expiresAt: expires, updatedAt: nil, origin: origin)
  }

  package static func cred(
    _ store: Store = .appStore, key: String, user: String, order: String? = nil, at: Instant? = nil
  )
    -> Credential
  {
    Credential(
      store: store, storeKey: key, userId: user, linkedStoreKey: nil, orderId: order, claimedAt: at,
      origin: origin)
  }

  package static func ledger(_ records: [StoreTransaction], asOf: Instant = t, catalog: Catalog = Catalog())
    -> Ledger
  {
    let builder = LedgerBuilder()
    for r in records { builder.add(r) }
    return builder.build(asOf: asOf, catalog: catalog)
  }

  package static func findings(
    _ records: [StoreTransaction], _ entitlements: [Entitlement], _ credentials: [Credential] = [],
    goodwill: [GoodwillGrant] = [], catalog: Catalog = Catalog()
  ) -> [Finding] {
    Reconciler.findings(
      ledger: ledger(records, catalog: catalog), entitlements: entitlements, credentials: credentials,
      goodwill: goodwill, options: ReconcileOptions(asOf: t))
  }

  /// A clean monthly App Store chain paid through `until`, bought a month earlier.
  package static func appleMonthly(
    _ original: String, until: Instant, product: String = "com.acme.pro.monthly"
  )
    -> StoreTransaction
  {
    apple(original, original: original, product: product, at: until.adding(ms: -days(30)), expires: until)
  }

  /// An App Store finding of 4.99 USD for `reason` on `chain`.
  package static func finding(_ reason: Finding.Reason, chain: String, user: String = "u1") -> Finding {
    Finding(
      reason: reason, store: .appStore, chainKey: chain, userId: user, productId: "com.acme.pro.monthly",
      currency: Currency.named("USD"), amountMinor: 499, detail: "d")
  }
}
