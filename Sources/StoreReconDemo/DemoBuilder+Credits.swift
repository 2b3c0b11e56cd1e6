import StoreReconCore

/// Planted credit and double-billing problems, and their negative controls.
extension DemoBuilder {
  /// The group of a credit or double-billing scenario; `nil` for any other scenario.
  func creditGroup(_ scenario: DemoScenario, _ user: DemoUser, _ rng: inout DemoRandom) throws -> DemoGroup? {
    var group = DemoGroup()
    func plant(_ kind: String, _ reason: String, _ store: Store, _ key: String, _ userId: String) {
      group.planted.append(
        PlantedFinding(kind: kind, reason: reason, store: store, chainKey: key, userId: userId))
    }
    /// A clean coin purchase `lower…upper` days before T, with its credential and credit.
    func coins(days lower: Int, _ upper: Int, sandbox: Bool = false) -> DemoChain {
      let at = target(&rng, days: -upper, -lower, .appStore)
      var chain = appleChain(
        user, [oneTimePeriod(.appleCoins, user.country, at: at, quantity: 1 + rng.below(3))], &rng)
      chain.sandbox = sandbox
      addClean(chain, userId: user.id, to: &group, &rng)
      return chain
    }
    switch scenario {
    case .appleCreditsMissing:
      // Charged, never credited (the server was down, the transaction never finished).
      let uncredited = coins(days: 1, 40)
      group.credits.removeLast()
      plant("uncredited_purchase", "not_credited", .appStore, uncredited.key, user.id)
      // Refunded by Apple, the coins were never taken back.
      var refunded = coins(days: 3, 40)
      let start = refunded.periods[0].start
      let at = instant(
        &rng, from: start.adding(days: 1),
        to: min(t.adding(ms: -DemoCalendar.msPerHour), start.adding(days: 20)),
        .appStore)
      refunded.periods[0].revocation = DemoRevocation(kind: .refundFull, at: at)
      group.chains[group.chains.count - 1] = refunded
      plant("credit_not_reversed", "refund_not_reversed", .appStore, refunded.key, user.id)
      // A credit naming a transaction Apple never sold.
      let tx = ids.unknownAppleTransactionId(&rng)
      group.credits.append(
        DemoCredit(
          creditId: ids.creditId(), userId: user.id, store: .appStore, transactionId: tx,
          productId: DemoProduct.appleCoins.name, quantity: DemoProduct.coinUnits,
          creditedAt: target(&rng, days: -40, -1, .appStore), reversedAt: nil))
      plant("orphan_credit", "unknown_transaction", .appStore, tx, user.id)
      // The control: bought an hour or a few before T, credited after T, within the grace.
      let recent = t.adding(ms: -1000 * rng.int64(3600, 5 * 3600))
      addClean(
        appleChain(user, [oneTimePeriod(.appleCoins, user.country, at: recent)], &rng), userId: user.id,
        to: &group, &rng)
      group.credits[group.credits.count - 1].creditedAt = t.adding(ms: 1000 * rng.int64(60, 3600))
    case .appleCreditsExtra:
      // Credited, crashed before finish(), redelivered, credited again.
      let twice = coins(days: 1, 40)
      var again = group.credits[group.credits.count - 1]
      again.creditId = ids.creditId()
      again.creditedAt = again.creditedAt.adding(ms: 1000 * rng.int64(60, 7200))
      group.credits.append(again)
      plant("double_credit", "credited_twice", .appStore, twice.key, user.id)
      // Credited with a whole pack too many.
      let over = coins(days: 1, 40)
      group.credits[group.credits.count - 1].quantity += DemoProduct.coinUnits
      plant("double_credit", "over_credited", .appStore, over.key, user.id)
      // A sandbox purchase credited in production.
      let sandbox = coins(days: 1, 40, sandbox: true)
      plant("orphan_credit", "sandbox_credit", .appStore, sandbox.key, user.id)
    default:
      return try billingGroup(scenario, user, &group, &rng) ? group : nil
    }
    return group
  }

  /// The double-billing scenarios; `false` for any other scenario.
  private func billingGroup(
    _ scenario: DemoScenario, _ user: DemoUser, _ group: inout DemoGroup, _ rng: inout DemoRandom
  ) throws -> Bool {
    switch scenario {
    case .billingAcrossStores:
      // Pro on the App Store, then Pro again on Play weeks later: both renew.
      let appleStart = target(&rng, days: -150, -70, .appStore)
      let apple = appleChain(
        user,
        subscriptionPeriods(
          .appleMonthly, user.country, firstStart: appleStart, trial: false,
          paidCount: periodsBeforeT(anchor: appleStart, months: 1)), &rng)
      addClean(apple, userId: user.id, to: &group, &rng)
      let playStart = target(&rng, days: -60, -10, .play)
      let play = try playChain(
        user,
        subscriptionPeriods(
          .playMonthly, user.country, firstStart: playStart, trial: false,
          paidCount: periodsBeforeT(anchor: playStart, months: 1)), &rng)
      addClean(play, userId: user.id, to: &group, &rng)
      group.planted.append(
        PlantedFinding(
          kind: "double_billing", reason: "across_stores", store: .play, chainKey: play.key, userId: user.id))
    case .playUpgradeLeftRenewing:
      // An upgrade whose old subscription was left renewing: the new token does not name it.
      let oldStart = target(&rng, days: -120, -60, .play)
      var old = try playChain(
        user,
        subscriptionPeriods(
          .playMonthly, user.country, firstStart: oldStart, trial: false,
          paidCount: periodsBeforeT(anchor: oldStart, months: 1)), &rng)
      old.autoRenew = true
      addClean(old, userId: user.id, to: &group, &rng)
      let newStart = target(&rng, days: -50, -5, .play)
      var new = try playChain(
        user,
        subscriptionPeriods(.playYearly, user.country, firstStart: newStart, trial: false, paidCount: 1),
        &rng)
      new.accountToken = old.accountToken
      addClean(new, userId: user.id, to: &group, &rng)
      group.planted.append(
        PlantedFinding(
          kind: "double_billing", reason: "within_store", store: .play, chainKey: new.key, userId: user.id))
    case .appleFamilyMemberOwnPlan:
      // A family member with Pro shared by the organiser, who also pays for Pro: not double billing
      // (the shared access is not a charge of this user).
      let start = target(&rng, days: -100, -40, .appStore)
      let own = appleChain(
        user,
        subscriptionPeriods(
          .appleMonthly, user.country, firstStart: start, trial: false,
          paidCount: periodsBeforeT(anchor: start, months: 1)), &rng)
      addClean(own, userId: user.id, to: &group, &rng)
      let sharedStart = target(&rng, days: -35, -5, .appStore)
      var shared = appleChain(
        user,
        subscriptionPeriods(
          .appleMonthly, user.country, firstStart: sharedStart, trial: false,
          paidCount: periodsBeforeT(anchor: sharedStart, months: 1)), &rng)
      shared.familyShared = true
      shared.accountToken = nil
      addClean(shared, userId: user.id, to: &group, &rng)
    default:
      return false
    }
    return true
  }
}
