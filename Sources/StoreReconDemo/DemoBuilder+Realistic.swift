import StoreReconCore

/// The realistic world's extras for a clean user (``DemoOptions/realistic``): more products (coins,
/// a lifetime unlock in the other store, a family-shared subscription), a second device's credential
/// for a chain and the expired entitlement row an app keeps from a chain's first period. Extras that
/// would make the rules report anything are dropped, so the group stays clean.
extension DemoBuilder {
  /// `group` with the realistic extras of `user`, or `group` itself if they would give a finding.
  func realisticExtras(_ user: DemoUser, _ group: DemoGroup, _ rng: inout DemoRandom) throws -> DemoGroup {
    var extended = group
    let buyer = !group.chains.isEmpty
    if buyer && rng.chance(300) {
      for _ in 0..<(1 + rng.below(4)) {
        let at = instant(&rng, from: worldStart, to: t.adding(ms: -DemoCalendar.msPerHour), .appStore)
        let coins = oneTimePeriod(.appleCoins, user.country, at: at, quantity: 1 + rng.below(3))
        addClean(appleChain(user, [coins], &rng), userId: user.id, to: &extended, &rng)
      }
    }
    if buyer && rng.chance(150) {
      let apple = group.chains.first?.store == .appStore
      let at = instant(
        &rng, from: worldStart, to: t.adding(ms: -DemoCalendar.msPerHour), apple ? .play : .appStore)
      let chain =
        apple
        ? try playChain(user, [oneTimePeriod(.playLifetime, user.country, at: at)], &rng, resource: false)
        : appleChain(user, [oneTimePeriod(.appleLifetime, user.country, at: at)], &rng)
      addClean(chain, userId: user.id, to: &extended, &rng)
    }
    if group.chains.first?.store == .appStore && rng.chance(80) {
      var shared = appleChain(
        user, randomSubscription(.appleYearly, user.country, &rng, store: .appStore, trialPerMille: 0), &rng)
      shared.familyShared = true
      shared.accountToken = nil
      if !shared.periods.isEmpty { addClean(shared, userId: user.id, to: &extended, &rng) }
    }
    secondDevices(&extended, &rng)
    firstPeriodRows(&extended, &rng)
    return check.findings(extended).isEmpty ? extended : group
  }

  /// A restore on a second device: the same user claims a chain again, days to months later.
  private func secondDevices(_ group: inout DemoGroup, _ rng: inout DemoRandom) {
    for c in group.credentials where rng.chance(450) {
      var again = c
      again.claimedAt = min(
        c.claimedAt.adding(ms: rng.int64(86_400_000, 200 * 86_400_000)), t.adding(ms: -60_000))
      group.credentials.append(again)
    }
  }

  /// The row an app keeps for a subscription's first period (a trial, or the first paid month) once
  /// the chain's current row replaced it: expired at that period's end.
  private func firstPeriodRows(_ group: inout DemoGroup, _ rng: inout DemoRandom) {
    for e in group.entitlements where e.source.store != nil && e.storeKey != nil && rng.chance(900) {
      guard let key = e.storeKey, let chain = group.chains.first(where: { $0.isNamed(by: key) }),
        chain.periods.count > 1, let end = chain.periods[0].end, end < t
      else { continue }
      var old = e
      old.entitlementId = ids.entitlementId()
      old.productId = chain.periods[0].product.name
      old.status = .expired
      old.expiresAt = end
      old.updatedAt = end.adding(ms: 1000 * rng.int64(1, 900))
      group.entitlements.append(old)
    }
  }
}
