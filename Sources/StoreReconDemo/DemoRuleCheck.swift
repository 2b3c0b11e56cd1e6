import StoreReconCore

/// docs/rules.md applied to one group of the demo world: what findings its chains and rows produce.
///
/// The generator builds every group from a scenario that says which findings it plants, then asks this
/// check what the rules actually say; a difference is a generator bug, so the truth file can never
/// drift from the rules. Groups never share chains, so checking each group alone checks the world.
struct DemoRuleCheck {
  /// The as-of instant.
  let t: Instant
  /// Grace allowance per store.
  let graceApple: Int64 = 16 * Instant.msPerDay
  let gracePlay: Int64 = 30 * Instant.msPerDay
  /// Tolerance on instants.
  let tolerance: Int64 = Instant.msPerDay

  func grace(_ store: Store) -> Int64 { store == .play ? gracePlay : graceApple }

  /// The grace allowance of `chain`: none for an App Store commitment plan (docs/rules.md#commitment-plans).
  func grace(_ chain: DemoChain) -> Int64 {
    chain.store == .appStore && chain.latest(at: t)?.commitment != nil ? 0 : grace(chain.store)
  }

  /// The findings docs/rules.md reports for `group`, sorted.
  func findings(_ group: DemoGroup) -> [PlantedFinding] {
    (storeFindings(group) + creditFindings(group) + doubleBillingFindings(group) + notificationFindings(group)
      + stripeFindings(group))
      .sorted()
  }

  /// The free-entitlement, orphaned-charge and duplicate-claim findings of `group`.
  func storeFindings(_ group: DemoGroup) -> [PlantedFinding] {
    var result: [PlantedFinding] = []
    let chains = group.chains
    func chainIndex(store: Store, key: String) -> Int? {
      chains.firstIndex { $0.store == store && $0.isNamed(by: key) }
    }
    let supersededKeys = Set(chains.compactMap(\.linkedToken))

    // Free entitlements: active store-sourced entitlements, first reason that applies.
    for e in group.entitlements where e.isActive(at: t) {
      guard let store = e.source.store, store != .stripe else { continue }
      func finding(_ reason: String, _ key: String) {
        result.append(
          PlantedFinding(
            kind: "free_entitlement", reason: reason, store: store, chainKey: key, userId: e.userId))
      }
      let key = e.storeKey ?? ""
      guard let index = chainIndex(store: store, key: key) else {
        finding("no_store_record", key)
        continue
      }
      let chain = chains[index]
      let paidThrough = chain.paidThrough(at: t)
      if chain.sandbox {
        finding("sandbox", chain.key)
      } else if chain.isRefunded(at: t) {
        finding("refunded", chain.key)
      } else if chain.token.map({ supersededKeys.contains($0) }) ?? false {
        finding("superseded", chain.key)
      } else if paidThrough.map({ $0.adding(ms: grace(chain)) < t }) ?? true {
        finding("store_expired", chain.key)
      } else if let paidThrough, paidThrough < Instant.distantFuture,
        (e.expiresAt ?? Instant.distantFuture) > paidThrough.adding(ms: grace(chain) + tolerance)
      {
        finding("overextended", chain.key)
      } else if e.productId != chain.currentProduct(at: t) {
        finding("product_mismatch", chain.key)
      }
    }

    // Per chain: orphaned charges and duplicate claims.
    for chain in chains {
      var claims: [(at: Instant, user: String)] = []
      for c in group.credentials where c.store == chain.store {
        let byOrder = chain.store == .play && (c.orderId.map { chain.isNamed(by: $0) } ?? false)
        if chain.isNamed(by: c.storeKey) || byOrder { claims.append((c.claimedAt, c.userId)) }
      }
      var activeEntitlement = false
      for e in group.entitlements where e.source.store == chain.store {
        guard let key = e.storeKey, chain.isNamed(by: key) else { continue }
        claims.append((e.startsAt, e.userId))
        if e.isActive(at: t) { activeEntitlement = true }
      }
      let superseded = chain.token.map { supersededKeys.contains($0) } ?? false
      let charges = chain.unrevokedPaidCharges(at: t)
      if claims.isEmpty {
        if !chain.sandbox && !chain.pending && !chain.familyShared && !charges.isEmpty {
          result.append(
            PlantedFinding(
              kind: "orphaned_charge", reason: "unclaimed", store: chain.store, chainKey: chain.key,
              userId: ""))
        }
        continue
      }
      let first = claims.min { ($0.at, $0.user) < ($1.at, $1.user) }
      if !charges.isEmpty && !chain.isRefunded(at: t) && !superseded && !chain.sandbox && !chain.pending,
        let paidThrough = chain.paidThrough(at: t), paidThrough > t.adding(ms: tolerance), !activeEntitlement,
        let first
      {
        result.append(
          PlantedFinding(
            kind: "orphaned_charge", reason: "locked_out", store: chain.store, chainKey: chain.key,
            userId: first.user))
      }
      var seen: Set<String> = []
      for claim in claims.sorted(by: { ($0.at, $0.user) < ($1.at, $1.user) })
      where seen.insert(claim.user).inserted {
        if claim.user != first?.user {
          result.append(
            PlantedFinding(
              kind: "duplicate_claim", reason: "multiple_users", store: chain.store, chainKey: chain.key,
              userId: claim.user))
        }
      }
    }
    return
      result
      .sorted()
  }
}
