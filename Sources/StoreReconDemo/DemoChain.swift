import StoreReconCore

/// One purchase chain of the demo world, and what docs/rules.md derives from it as of an instant.
struct DemoChain {
  /// The store.
  var store: Store
  /// The chain key: Apple `originalTransactionId`; Play purchase token, or the first order id for a
  /// chain known only from sales rows.
  package var key: String
  /// The world's user who bought it.
  var ownerId: String
  /// What the store says about the user: Apple `appAccountToken`, Play `obfuscatedExternalAccountId`.
  var accountToken: String?
  /// Where it was bought.
  var country: DemoCountry
  /// The purchases, oldest first.
  var periods: [DemoPeriod]
  /// Apple Sandbox, or a Play license-tester purchase.
  var sandbox = false
  /// Apple `FAMILY_SHARED`.
  var familyShared = false
  /// Play purchase token (`nil`: a chain known only from sales rows).
  var token: String?
  /// Play first order id (no `..N`).
  var orderBase = ""
  /// Play `linkedPurchaseToken`: the chain this one replaced.
  var linkedToken: String?
  /// Play: a subscriptionsv2 resource is written.
  var hasResource = false
  /// Play `SUBSCRIPTION_STATE_PENDING`.
  var pending = false
  /// Play auto-renewal still on.
  var autoRenew = true
  /// Play `lineItems[].expiryTime` when it is not the last period's end (replaced or refunded chain).
  var resourceExpiry: Instant?
  /// Play: a newer chain replaced this one (upgrade); its resource says so.
  var replaced = false

  /// Creates a chain.
  init(
    store: Store, key: String, ownerId: String, accountToken: String?, country: DemoCountry,
    periods: [DemoPeriod]
  ) {
    self.store = store
    self.key = key
    self.ownerId = ownerId
    self.accountToken = accountToken
    self.country = country
    self.periods = periods
  }

  /// Play `lineItems[].expiryTime`; `nil` while pending.
  var playExpiry: Instant? { pending ? nil : (resourceExpiry ?? periods.last?.end) }

  /// Purchases that count for access (consumables never back access).
  private func backingIndices(at t: Instant) -> [Int] {
    periods.indices.filter { periods[$0].start <= t && periods[$0].product.tier != .coins }
  }

  /// The latest purchase at or before `t` (consumables ignored).
  func latest(at t: Instant) -> DemoPeriod? {
    backingIndices(at: t).last.map { periods[$0] }
  }

  /// The latest purchase was revoked, refunded or voided at or before `t`.
  func isRefunded(at t: Instant) -> Bool { latest(at: t)?.isRevoked(at: t) ?? false }

  /// The latest purchase's revocation was a family-sharing removal.
  func isFamilyRevoked(at t: Instant) -> Bool {
    guard let latest = latest(at: t), latest.isRevoked(at: t) else { return false }
    return latest.revocation?.kind == .familyRevoke || familyShared
  }

  /// The product of the latest purchase.
  func currentProduct(at t: Instant) -> String? { latest(at: t)?.product.name }

  /// Paid-through as docs/rules.md defines it; `Instant.distantFuture` for a one-time unlock, `nil` for none.
  func paidThrough(at t: Instant) -> Instant? {
    if store == .play {
      if hasResource { return playExpiry }
      var best: Instant?
      for p in periods where p.start <= t && !p.isTrial && !p.isRevoked(at: t) {
        let end = p.product.months.map { DemoCalendar.addMonths(p.start, $0) } ?? Instant.distantFuture
        if best.map({ end > $0 }) ?? true { best = end }
      }
      return best
    }
    var best: Instant?
    let indices = backingIndices(at: t)
    for (position, i) in indices.enumerated() where !periods[i].isRevoked(at: t) {
      let p = periods[i]
      var end = p.end ?? Instant.distantFuture
      if p.isUpgraded, position + 1 < indices.count { end = periods[indices[position + 1]].start }
      if best.map({ end > $0 }) ?? true { best = end }
    }
    return best
  }

  /// Paid charges at or before `t` that were not taken back: money the store kept.
  func unrevokedPaidCharges(at t: Instant) -> [DemoPeriod] {
    guard !sandbox, !familyShared, !pending else { return [] }
    return periods.filter { $0.start <= t && $0.priceMinor > 0 && !$0.isTrial && !$0.isRevoked(at: t) }
  }

  /// Every Play order id of the chain, as written.
  var orderIds: [String] { periods.map(\.orderId) }

  /// Does an app-row key name this chain? Apple: the original transaction id. Play: the purchase
  /// token, or any order id of the chain with or without its `..N` suffix.
  func isNamed(by storeKey: String) -> Bool {
    if storeKey == key { return true }
    guard store == .play else { return false }
    if let token, storeKey == token { return true }
    return DemoChain.orderBase(of: storeKey) == orderBase
  }

  /// An order id without its `..N` renewal suffix.
  static func orderBase(of orderId: String) -> String {
    guard let range = orderId.range(of: "..") else { return orderId }
    return String(orderId[..<range.lowerBound])
  }
}
