/// Planted problems: one group per occurrence, each recording the finding docs/rules.md must report.
extension DemoBuilder {
  /// Builds the group of a special user (planted problem or trap). `users` has `scenario.users` users.
  func specialGroup(_ scenario: DemoScenario, _ users: [DemoUser], _ rng: inout DemoRandom) throws
    -> DemoGroup
  {
    if scenario == .appleReportDayBoundary { return reportDayBoundaryGroup(users[0], &rng) }
    if let group = try creditGroup(scenario, users[0], &rng) { return group }
    if let group = try commitmentGroup(scenario, users[0], &rng) { return group }
    if let group = try oneSourceRefundGroup(scenario, users[0], &rng) { return group }
    if let group = try installmentsGroup(scenario, users[0], &rng) { return group }
    return scenario.isPlanted
      ? try plantedGroup(scenario, users, &rng) : try trapGroup(scenario, users[0], &rng)
  }

  private func plantedGroup(_ scenario: DemoScenario, _ users: [DemoUser], _ rng: inout DemoRandom) throws
    -> DemoGroup
  {
    let user = users[0]
    var group = DemoGroup()
    let store = scenario.store
    let apple = store == .appStore
    let monthly: DemoProduct = apple ? .appleMonthly : .playMonthly

    /// A chain paid through `lower…upper` days from T.
    func chainEnding(days lower: Int, _ upper: Int, trialPerMille: Int = 300, minimumPaid: Int = 1) throws
      -> DemoChain
    {
      let paidThrough = target(&rng, days: lower, upper, store)
      let trial = rng.chance(trialPerMille)
      let periods = periodsEnding(
        at: paidThrough, monthly, user.country, &rng, trial: trial, minimumPaid: minimumPaid)
      return apple ? appleChain(user, periods, &rng) : try playChain(user, periods, &rng)
    }
    func plant(_ kind: String, _ reason: String, _ key: String, _ userId: String) {
      group.planted.append(
        PlantedFinding(kind: kind, reason: reason, store: store, chainKey: key, userId: userId))
    }

    switch scenario {
    case .appleUnclaimed, .playUnclaimed:
      // A paid chain nobody claimed: no credential, no entitlement.
      let product: DemoProduct = rng.chance(800) ? monthly : DemoProduct.product(.yearly, in: store)
      let periods = randomSubscription(product, user.country, &rng, store: store, requirePaid: true)
      let chain =
        apple
        ? appleChain(user, periods, &rng, tokenPerMille: 1000)
        : try playChain(user, periods, &rng, accountPerMille: 1000)
      group.chains.append(chain)
      plant("orphaned_charge", "unclaimed", chain.key, "")

    case .appleLockedOut, .playLockedOut:
      // Paid through well past T, but the app expired (Apple) or revoked (Play) the entitlement.
      let chain = try chainEnding(days: 5, 26)
      let e = try addKeyed(chain, user.id, &group, &rng)
      group.entitlements[e].status = apple ? .expired : .revoked
      group.entitlements[e].expiresAt = chain.periods.last?.start
      plant("orphaned_charge", "locked_out", chain.key, user.id)

    case .appleNoStoreRecord, .playNoStoreRecord:
      // An active store entitlement naming a purchase no store record has.
      let key = apple ? ids.unknownAppleTransactionId(&rng) : ids.unknownPlayToken(&rng)
      let start = instant(&rng, from: worldStart, to: t.adding(days: -20), store)
      group.entitlements.append(
        DemoEntitlement(
          entitlementId: ids.entitlementId(), userId: user.id, productId: monthly.name,
          source: apple ? .appStore : .play,
          storeKey: key, status: .active, startsAt: start, expiresAt: target(&rng, days: 3, 25, store),
          updatedAt: start.adding(ms: 5000)))
      if rng.chance(500) {
        group.credentials.append(
          DemoCredential(
            store: store, storeKey: key, userId: user.id, linkedStoreKey: nil, orderId: nil,
            claimedAt: start.adding(ms: 2000)))
      }
      plant("free_entitlement", "no_store_record", key, user.id)

    case .appleSandbox, .playTestPurchase:
      // Only sandbox / license-tester purchases back a production entitlement.
      var chain = try chainEnding(days: 3, 26)
      chain.sandbox = true
      try addKeyed(chain, user.id, &group, &rng)
      plant("free_entitlement", "sandbox", chain.key, user.id)

    case .appleRefundFull, .appleFamilyRevoke, .playRefundRow, .playVoided:
      // The latest period was refunded, family-revoked or voided; the entitlement still grants.
      var chain = try chainEnding(days: 5, 26)
      if scenario == .appleFamilyRevoke {
        chain.familyShared = true
        chain.accountToken = nil
      }
      guard let at = refundInstant(chain, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): no room to refund the latest period of \(chain.key)")
      }
      let kinds: [DemoScenario: DemoRevocation.Kind] = [
        .appleRefundFull: .refundFull, .appleFamilyRevoke: .familyRevoke, .playRefundRow: .playRefundRow,
        .playVoided: .playVoid,
      ]
      chain.periods[chain.periods.count - 1].revocation = DemoRevocation(
        kind: kinds[scenario] ?? .refundFull, at: at)
      // The app never heard of the refund: access runs to the refunded period's end.
      let e = try addKeyed(chain, user.id, &group, &rng)
      group.entitlements[e].status = .active
      group.entitlements[e].expiresAt = chain.periods.last?.end
      plant("free_entitlement", "refunded", chain.key, user.id)

    case .playSuperseded:
      // An upgrade's old token still grants.
      let (old, new) = try upgradePair(user, &group, &rng)
      if let e = group.entitlements.firstIndex(where: { $0.storeKey == old.key }) {
        group.entitlements[e].status = .active
        group.entitlements[e].expiresAt = rng.chance(500) ? nil : new.paidThrough(at: t)
      }
      plant("free_entitlement", "superseded", old.key, user.id)

    case .appleStoreExpired, .playStoreExpired:
      // The chain lapsed long ago (more than the grace allowance), the entitlement runs on.
      var chain = try chainEnding(days: -150, apple ? -25 : -40)
      chain.autoRenew = false
      let e = try addKeyed(chain, user.id, &group, &rng)
      group.entitlements[e].status = .active
      group.entitlements[e].expiresAt = rng.chance(300) ? nil : t.adding(days: rng.int64(30, 200))
      plant("free_entitlement", "store_expired", chain.key, user.id)

    case .appleOverextendedOpenEnded, .appleOverextendedMonths, .playOverextended:
      // Paid through after T, but the entitlement ends far later (or never).
      let chain = try chainEnding(days: 2, 26)
      let e = try addKeyed(chain, user.id, &group, &rng)
      let openEnded =
        scenario == .appleOverextendedOpenEnded || (scenario == .playOverextended && rng.chance(500))
      group.entitlements[e].expiresAt =
        openEnded ? nil : chain.paidThrough(at: t).map { DemoCalendar.addMonths($0, 3) }
      plant("free_entitlement", "overextended", chain.key, user.id)

    case .appleProductMismatchYearly, .appleProductMismatchLifetime, .playProductMismatch:
      // A monthly chain whose entitlement grants the yearly or lifetime product.
      let chain = try chainEnding(days: 2, 26)
      let e = try addKeyed(chain, user.id, &group, &rng)
      let granted: DemoProduct
      switch scenario {
      case .appleProductMismatchYearly: granted = .appleYearly
      case .appleProductMismatchLifetime: granted = .appleLifetime
      default: granted = rng.chance(500) ? .playYearly : .playLifetime
      }
      group.entitlements[e].productId = granted.name
      plant("free_entitlement", "product_mismatch", chain.key, user.id)

    case .appleDuplicateClaim, .playDuplicateClaim:
      // A second user claims the owner's chain later.
      let second = users[1]
      let product: DemoProduct = rng.chance(800) ? monthly : DemoProduct.product(.yearly, in: store)
      let periods = randomSubscription(
        product, user.country, &rng, store: store, to: t.adding(days: -10), requirePaid: true)
      let chain = apple ? appleChain(user, periods, &rng) : try playChain(user, periods, &rng)
      addClean(chain, userId: user.id, to: &group, &rng)
      let first = chain.periods.first?.start ?? t
      let key = apple || rng.chance(500) ? chain.key : chain.orderBase
      group.credentials.append(
        DemoCredential(
          store: store, storeKey: key, userId: second.id, linkedStoreKey: nil,
          orderId: apple ? nil : chain.orderBase,
          claimedAt: instant(
            &rng, from: first.adding(days: 2), to: min(t.adding(days: -1), first.adding(days: 60)), store)))
      plant("duplicate_claim", "multiple_users", chain.key, second.id)

    default:
      break
    }
    return group
  }

  /// Adds `chain` with a credential and a correct entitlement, both naming the chain key itself.
  @discardableResult
  func addKeyed(_ chain: DemoChain, _ userId: String, _ group: inout DemoGroup, _ rng: inout DemoRandom)
    throws -> Int
  {
    guard let entitlement = cleanEntitlement(chain, userId: userId, storeKey: chain.key, &rng) else {
      throw DemoError.inconsistentTruth("chain \(chain.key) backs no entitlement")
    }
    group.chains.append(chain)
    group.credentials.append(credential(chain, userId: userId, storeKey: chain.key, &rng))
    group.entitlements.append(entitlement)
    return group.entitlements.count - 1
  }

  /// A Play upgrade: a monthly chain replaced mid-period by a new token (yearly or monthly-hi) whose
  /// `linkedPurchaseToken` names the old one. Both get credentials; the old entitlement is expired at the
  /// upgrade, the new one is correct. Returns the old and the new chain.
  func upgradePair(_ user: DemoUser, _ group: inout DemoGroup, _ rng: inout DemoRandom) throws -> (
    DemoChain, DemoChain
  ) {
    // Within the last year or so: a one-year upgrade must still be current at T.
    let earliest = realistic ? max(worldStart, t.adding(days: -330)) : worldStart
    let firstStart = instant(&rng, from: earliest, to: t.adding(days: -75), .play)
    let trial = rng.chance(300)
    let anchor = trial ? firstStart.adding(days: 7) : firstStart
    let upgradeAt = instant(&rng, from: anchor.adding(days: 10), to: t.adding(days: -2), .play)
    var paid = 0
    while DemoCalendar.addMonths(anchor, paid) < upgradeAt { paid += 1 }
    var old = try playChain(
      user,
      subscriptionPeriods(.playMonthly, user.country, firstStart: firstStart, trial: trial, paidCount: paid),
      &rng)
    old.resourceExpiry = upgradeAt
    old.autoRenew = false
    old.replaced = true
    let product: DemoProduct = rng.chance(500) ? .playYearly : .playMonthlyHi
    let count = product == .playYearly ? 1 : periodsBeforeT(anchor: upgradeAt, months: 1)
    var new = try playChain(
      user, subscriptionPeriods(product, user.country, firstStart: upgradeAt, trial: false, paidCount: count),
      &rng)
    new.linkedToken = old.token
    new.accountToken = old.accountToken
    try addKeyed(old, user.id, &group, &rng)
    addClean(new, userId: user.id, to: &group, &rng)
    return (old, new)
  }
}
