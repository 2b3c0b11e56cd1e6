import StoreReconCore

/// The natural population: clean users whose store data and app rows agree, so docs/rules.md finds nothing.
extension DemoBuilder {
  /// A clean user: ~50 % App Store, ~40 % Play, ~10 % without a purchase.
  func naturalGroup(_ user: DemoUser, _ rng: inout DemoRandom) throws -> DemoGroup {
    var group = DemoGroup()
    switch rng.weighted([500, 400, 100]) {
    case 0: naturalApple(user, &group, &rng)
    case 1: try naturalPlay(user, &group, &rng)
    default: naturalNoPurchase(user, &group, &rng)
    }
    if !group.chains.isEmpty && rng.chance(10) {
      group.goodwill.append(goodwillGrant(user.id, product: DemoProduct.appleMonthly.name, &rng))
    }
    return realistic ? try realisticExtras(user, group, &rng) : group
  }

  private func naturalApple(_ user: DemoUser, _ group: inout DemoGroup, _ rng: inout DemoRandom) {
    switch rng.weighted([750, 150, 100]) {
    case 2:
      let at = instant(&rng, from: worldStart, to: t.adding(ms: -DemoCalendar.msPerHour), .appStore)
      addClean(
        appleChain(user, [oneTimePeriod(.appleLifetime, user.country, at: at)], &rng), userId: user.id,
        to: &group, &rng)
    case let tier:
      let product: DemoProduct = tier == 0 ? .appleMonthly : .appleYearly
      var periods = randomSubscription(
        product, user.country, &rng, store: .appStore, start: cohortStart(product, &rng))
      guard enrol(user, &periods, &group, &rng) else { break }
      var chain = appleChain(user, periods, &rng)
      let refund = rng.below(1000)
      if refund < 10, let index = olderPaidPeriod(chain, &rng) {
        chain.periods[index].revocation = DemoRevocation(
          kind: .refundFull,
          at: instant(&rng, from: chain.periods[index].start, to: chain.periods[index + 1].start, .appStore))
        addClean(chain, userId: user.id, to: &group, &rng)
      } else if refund < 15, let at = refundInstant(chain, &rng) {
        chain.periods[chain.periods.count - 1].revocation = DemoRevocation(kind: .refundFull, at: at)
        revokeAfterRefund(chain, user, at, &group, &rng)
      } else {
        addClean(chain, userId: user.id, to: &group, &rng)
      }
    }
    if rng.chance(150) {
      for _ in 0..<(1 + rng.below(3)) {
        let at = instant(&rng, from: worldStart, to: t.adding(ms: -DemoCalendar.msPerHour), .appStore)
        let coins = oneTimePeriod(.appleCoins, user.country, at: at, quantity: 1 + rng.below(3))
        addClean(appleChain(user, [coins], &rng), userId: user.id, to: &group, &rng)
      }
    }
  }

  private func naturalPlay(_ user: DemoUser, _ group: inout DemoGroup, _ rng: inout DemoRandom) throws {
    switch rng.weighted([750, 150, 100]) {
    case 2:
      let at = instant(&rng, from: worldStart, to: t.adding(ms: -DemoCalendar.msPerHour), .play)
      let chain = try playChain(
        user, [oneTimePeriod(.playLifetime, user.country, at: at)], &rng, resource: false)
      addClean(chain, userId: user.id, to: &group, &rng)
    case let tier:
      let product: DemoProduct = tier == 0 ? .playMonthly : .playYearly
      var periods = randomSubscription(
        product, user.country, &rng, store: .play, start: cohortStart(product, &rng))
      guard enrol(user, &periods, &group, &rng) else { return }
      var chain = try playChain(user, periods, &rng)
      let refund = rng.below(1000)
      if refund < 10, let index = olderPaidPeriod(chain, &rng) {
        chain.periods[index].revocation = DemoRevocation(
          kind: .playRefundRow,
          at: instant(&rng, from: chain.periods[index].start, to: chain.periods[index + 1].start, .play))
        addClean(chain, userId: user.id, to: &group, &rng)
      } else if refund < 15, let at = refundInstant(chain, &rng) {
        chain.periods[chain.periods.count - 1].revocation = DemoRevocation(kind: .playRefundAndVoid, at: at)
        chain.resourceExpiry = at
        chain.autoRenew = false
        revokeAfterRefund(chain, user, at, &group, &rng)
      } else {
        addClean(chain, userId: user.id, to: &group, &rng)
      }
    }
  }

  private func naturalNoPurchase(_ user: DemoUser, _ group: inout DemoGroup, _ rng: inout DemoRandom) {
    if rng.chance(250) {
      let grant = goodwillGrant(user.id, product: rng.pick(["com.acme.pro.monthly", "pro:monthly"]), &rng)
      group.goodwill.append(grant)
      group.entitlements.append(
        grantEntitlement(user.id, .goodwill, grant.productId, grant.startsAt, grant.endsAt))
    } else if rng.chance(120) {
      let start = instant(&rng, from: worldStart, to: t.adding(days: -1), .appStore)
      let product = rng.pick(["com.acme.pro.yearly", "pro:yearly"])
      group.entitlements.append(grantEntitlement(user.id, .promo, product, start, start.adding(days: 365)))
    }
    if experimentStart < t && rng.chance(300) {
      let at = instant(&rng, from: experimentStart, to: min(experimentEnd, t), .appStore)
      group.assignments.append(
        DemoAssignment(
          userId: user.id, experimentId: DemoBuilder.experimentId,
          armId: rng.chance(500) ? "high" : "control", assignedAt: at))
    }
  }

  /// Share (per mille) of new monthly subscribers who start during the experiment's enrolment (the
  /// paywall campaign the experiment runs in), on top of those the natural start dates put there.
  static let cohortPerMille = 500
  /// The experiment's true effect: a user the high arm shows 6.99 (instead of 4.99, or the country's
  /// equivalents) declines to buy with this probability (per mille); everyone else buys as in control.
  /// So the high arm converts about 15 % less but pays about 40 % more per charge: revenue per assigned
  /// user is about 0.85 × 1.4 ≈ 1.19 times control's.
  static let highDeclinePerMille = 150

  /// A first-purchase instant inside the experiment's enrolment days for a share of new monthly
  /// subscribers; `nil` for the rest (their start is drawn as usual).
  func cohortStart(_ product: DemoProduct, _ rng: inout DemoRandom) -> Instant? {
    guard product.tier == .monthly else { return nil }
    let end = min(experimentEnd, t.adding(ms: -DemoCalendar.msPerHour))
    guard experimentStart < end, rng.chance(DemoBuilder.cohortPerMille) else { return nil }
    return instant(&rng, from: experimentStart, to: end, product.store)
  }

  /// Puts a user whose first purchase falls in the experiment's window into an arm, before that purchase;
  /// the high arm buys the `…monthly.hi` / `pro:monthly-hi` product instead of the monthly one, or (the
  /// true effect) declines to buy at all: then `periods` is emptied and `false` returned.
  @discardableResult
  func enrol(
    _ user: DemoUser, _ periods: inout [DemoPeriod], _ group: inout DemoGroup, _ rng: inout DemoRandom
  ) -> Bool {
    guard let first = periods.first, first.product.tier == .monthly,
      first.start >= experimentStart, first.start < experimentEnd
    else { return true }
    let high = rng.chance(500)
    let lower = max(experimentStart, first.start.adding(days: -3))
    let upper = max(lower, first.start.adding(ms: -60_000))
    group.assignments.append(
      DemoAssignment(
        userId: user.id, experimentId: DemoBuilder.experimentId, armId: high ? "high" : "control",
        assignedAt: instant(&rng, from: lower, to: upper, .appStore)))
    guard high else { return true }
    if rng.chance(DemoBuilder.highDeclinePerMille) {
      periods = []
      return false
    }
    let product = DemoProduct.product(.monthlyHi, in: first.product.store)
    for i in periods.indices {
      periods[i].product = product
      if !periods[i].isTrial { periods[i].priceMinor = user.country.price(.monthlyHi) }
    }
    return true
  }

  /// A paid period that is not the chain's latest (so refunding it leaves the chain paid).
  func olderPaidPeriod(_ chain: DemoChain, _ rng: inout DemoRandom) -> Int? {
    let candidates = chain.periods.indices.dropLast().filter { !chain.periods[$0].isTrial }
    return candidates.isEmpty ? nil : rng.pick(Array(candidates))
  }

  /// An instant after the latest purchase (a paid one) and before T, for refunding it; `nil` if none fits.
  func refundInstant(_ chain: DemoChain, _ rng: inout DemoRandom) -> Instant? {
    guard let last = chain.periods.last, !last.isTrial, last.start.adding(ms: 3 * DemoCalendar.msPerHour) < t
    else {
      return nil
    }
    let upper = min(t.adding(ms: -DemoCalendar.msPerHour), last.start.adding(days: 20))
    return instant(&rng, from: last.start.adding(ms: DemoCalendar.msPerHour), to: upper, chain.store)
  }

  /// A refunded chain whose app applied the refund: the entitlement is revoked at the refund.
  private func revokeAfterRefund(
    _ chain: DemoChain, _ user: DemoUser, _ at: Instant, _ group: inout DemoGroup, _ rng: inout DemoRandom
  ) {
    guard let index = addClean(chain, userId: user.id, to: &group, &rng) else { return }
    group.entitlements[index].status = .revoked
    group.entitlements[index].expiresAt = at
    group.entitlements[index].updatedAt = at.adding(ms: 30_000)
  }

  /// A goodwill grant support gave a user.
  func goodwillGrant(_ userId: String, product: String, _ rng: inout DemoRandom) -> DemoGoodwill {
    let start = instant(&rng, from: worldStart, to: t.adding(days: -1), .appStore)
    let reasons = [
      "outage 2026-03-14, compensation", "support: billing dispute", "influencer program",
      "beta tester thanks",
      "store refund delay, \"sorry\" month",
    ]
    return DemoGoodwill(
      grantId: ids.grantId(), userId: userId, productId: product, startsAt: start,
      endsAt: start.adding(days: rng.pick([30, 90, 365])), reason: rng.pick(reasons))
  }

  /// A goodwill or promo entitlement: no store key, active until its end.
  func grantEntitlement(
    _ userId: String, _ source: EntitlementSource, _ product: String, _ start: Instant, _ end: Instant?
  )
    -> DemoEntitlement
  {
    DemoEntitlement(
      entitlementId: ids.entitlementId(), userId: userId, productId: product, source: source, storeKey: nil,
      status: end.map { $0 > t } ?? true ? .active : .expired, startsAt: start, expiresAt: end,
      updatedAt: start)
  }
}
