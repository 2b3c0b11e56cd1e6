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
    return result
  }
}
