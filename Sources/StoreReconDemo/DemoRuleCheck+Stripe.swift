import StoreReconCore

/// docs/rules.md#stripe applied to one group's web subscriptions, from the demo's own structures (not
/// the job's code): free entitlements, orphaned charges and duplicate claims of the Stripe chains.
extension DemoRuleCheck {
  /// The config's `graceDays.stripe`.
  static let graceDaysStripe: Int64 = 7

  /// The users claiming `s` (credentials and entitlements naming it), earliest first.
  func stripeClaims(_ s: DemoStripeSubscription, _ group: DemoGroup) -> [(at: Instant, user: String)] {
    var claims: [(at: Instant, user: String)] = []
    for c in group.credentials where c.store == .stripe && c.storeKey == s.id {
      claims.append((c.claimedAt, c.userId))
    }
    for e in group.entitlements where e.source == .stripe && e.storeKey == s.id {
      claims.append((e.startsAt, e.userId))
    }
    return claims.sorted { ($0.at, $0.user) < ($1.at, $1.user) }
  }

  /// The person `s` bills for double billing: its first claimer, else its customer's metadata.
  func stripePerson(_ s: DemoStripeSubscription, _ group: DemoGroup) -> String {
    stripeClaims(s, group).first?.user ?? s.person
  }

  /// The free-entitlement, orphaned-charge and duplicate-claim findings of `group`'s web subscriptions.
  func stripeFindings(_ group: DemoGroup) -> [PlantedFinding] {
    var result: [PlantedFinding] = []
    let grace = DemoRuleCheck.graceDaysStripe * Instant.msPerDay
    func finding(_ kind: String, _ reason: String, _ key: String, _ user: String) {
      result.append(PlantedFinding(kind: kind, reason: reason, store: .stripe, chainKey: key, userId: user))
    }
    for e in group.entitlements where e.source == .stripe && e.isActive(at: t) {
      let key = e.storeKey ?? ""
      guard let s = group.stripe.first(where: { $0.id == key }) else {
        finding("free_entitlement", "no_store_record", key, e.userId)
        continue
      }
      let paidThrough = s.paidThrough(at: t)
      if !s.live {
        finding("free_entitlement", "sandbox", s.id, e.userId)
      } else if s.isRefunded(at: t) {
        finding("free_entitlement", "refunded", s.id, e.userId)
      } else if paidThrough.map({ $0.adding(ms: grace) < t }) ?? true {
        finding("free_entitlement", "store_expired", s.id, e.userId)
      } else if let paidThrough,
        (e.expiresAt ?? Instant.distantFuture) > paidThrough.adding(ms: grace + tolerance)
      {
        finding("free_entitlement", "overextended", s.id, e.userId)
      } else if e.productId != DemoStripeSubscription.product {
        finding("free_entitlement", "product_mismatch", s.id, e.userId)
      }
    }
    for s in group.stripe {
      let claims = stripeClaims(s, group)
      let charges = s.charges(at: t).filter { !$0.isRevoked(at: t) }
      guard let first = claims.first else {
        if s.live && !charges.isEmpty { finding("orphaned_charge", "unclaimed", s.id, "") }
        continue
      }
      let active = group.entitlements.contains {
        $0.source == .stripe && $0.storeKey == s.id && $0.isActive(at: t)
      }
      if s.live, !charges.isEmpty, !s.isRefunded(at: t), !active,
        let paidThrough = s.paidThrough(at: t), paidThrough > t.adding(ms: tolerance)
      {
        finding("orphaned_charge", "locked_out", s.id, first.user)
      }
      var seen: Set<String> = [first.user]
      for claim in claims where seen.insert(claim.user).inserted {
        finding("duplicate_claim", "multiple_users", s.id, claim.user)
      }
    }
    return result + group.stripe.flatMap { webhookFindings($0, group) }
  }

  /// The notification-health findings of the webhook events of `s` (docs/rules.md#stripe-webhook-events):
  /// an event the log never received, older than the age allowed, whose type asks something of the
  /// entitlement row or is one the endpoint takes (`never_received`); one received and not processed
  /// (`unprocessed`); the latest processed one granting access to a purchase paid beyond T while no
  /// entitlement naming it is active (`renewal_not_applied`). Test mode raises none.
  func webhookFindings(_ s: DemoStripeSubscription, _ group: DemoGroup) -> [PlantedFinding] {
    guard s.live else { return [] }
    let age = DemoNotifications.ageHours * 3_600_000
    let named = group.entitlements.filter { $0.source == .stripe && $0.storeKey == s.id }
    func finding(_ kind: String, _ reason: String, _ user: String) -> PlantedFinding {
      PlantedFinding(kind: kind, reason: reason, store: .stripe, chainKey: s.id, userId: user)
    }
    typealias Event = DemoStripeSubscription.Event
    var result: [PlantedFinding] = []
    for e in s.events where e.received == nil && e.created <= t && t.ms - e.created.ms > age {
      if Event.asking.contains(e.type) || Event.enabled.contains(e.type) {
        result.append(finding("notification_missing", "never_received", ""))
      }
    }
    let received = s.events.filter { $0.received.map { $0.at <= t } ?? false }
    for e in received {
      guard let r = e.received, r.processed > t, t.ms - r.at.ms > age else { continue }
      let users = Set(named.map(\.userId)).sorted()
      for user in users.isEmpty ? [""] : users {
        result.append(finding("notification_unprocessed", "unprocessed", user))
      }
    }
    if let latest = received.max(by: { ($0.created, $0.id) < ($1.created, $1.id) }),
      let r = latest.received, r.processed <= t, Event.asking.contains(latest.type), !named.isEmpty,
      !s.isRefunded(at: t), let paidThrough = s.paidThrough(at: t), paidThrough > t.adding(ms: tolerance),
      !named.contains(where: { $0.isActive(at: t) })
    {
      for user in Set(named.map(\.userId)).sorted() {
        result.append(finding("notification_not_applied", "renewal_not_applied", user))
      }
    }
    return result
  }
}
