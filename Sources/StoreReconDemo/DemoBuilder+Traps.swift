/// Traps: situations that look like problems but are not findings under docs/rules.md.
extension DemoBuilder {
  func trapGroup(_ scenario: DemoScenario, _ user: DemoUser, _ rng: inout DemoRandom) throws -> DemoGroup {
    var group = DemoGroup()
    let store = scenario.store
    let apple = store == .appStore
    let monthly: DemoProduct = apple ? .appleMonthly : .playMonthly

    func chain(_ periods: [DemoPeriod], resource: Bool = true) throws -> DemoChain {
      apple ? appleChain(user, periods, &rng) : try playChain(user, periods, &rng, resource: resource)
    }
    func chainEnding(days lower: Int, _ upper: Int, minimumPaid: Int = 1) throws -> DemoChain {
      let paidThrough = target(&rng, days: lower, upper, store)
      return try chain(
        periodsEnding(
          at: paidThrough, monthly, user.country, &rng, trial: rng.chance(300), minimumPaid: minimumPaid))
    }

    switch scenario {
    case .appleOldRefund, .appleOldProratedRefund, .playOldRefund, .playOldVoid:
      // An older period was refunded (or voided); the chain renewed since, so it still backs access.
      var c = try chainEnding(days: 2, 26, minimumPaid: 3)
      guard let index = olderPaidPeriod(c, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no older paid period")
      }
      let kind: DemoRevocation.Kind
      switch scenario {
      case .appleOldRefund: kind = .refundFull
      case .appleOldProratedRefund: kind = .refundProrated(50_000)
      case .playOldRefund: kind = .playRefundRow
      default: kind = .playVoid
      }
      let at = instant(&rng, from: c.periods[index].start, to: c.periods[index + 1].start, store)
      c.periods[index].revocation = DemoRevocation(kind: kind, at: at)
      addClean(c, userId: user.id, to: &group, &rng)

    case .appleUpgrade:
      // Monthly upgraded to yearly inside the chain: the old transaction `isUpgraded`, the entitlement
      // names the new product.
      let firstStart = instant(&rng, from: worldStart, to: t.adding(days: -75), store)
      let trial = rng.chance(300)
      let anchor = trial ? firstStart.adding(days: 7) : firstStart
      let upgradeAt = instant(&rng, from: anchor.adding(days: 10), to: t.adding(days: -2), store)
      var paid = 0
      while DemoCalendar.addMonths(anchor, paid) < upgradeAt { paid += 1 }
      var periods = subscriptionPeriods(
        monthly, user.country, firstStart: firstStart, trial: trial, paidCount: paid)
      periods[periods.count - 1].isUpgraded = true
      periods.append(
        DemoPeriod(
          product: .appleYearly, start: upgradeAt, end: DemoCalendar.addMonths(upgradeAt, 12),
          priceMinor: user.country.price(.yearly)))
      addClean(appleChain(user, periods, &rng), userId: user.id, to: &group, &rng)

    case .playUpgradeClean:
      // A Play upgrade done right: the old token's entitlement ended at the upgrade.
      _ = try upgradePair(user, &group, &rng)

    case .appleExactBound, .playExactBound:
      // The entitlement ends exactly at paid-through + grace + tolerance: not overextended.
      let c = try chainEnding(days: 2, 26)
      guard let e = addClean(c, userId: user.id, to: &group, &rng), let paidThrough = c.paidThrough(at: t)
      else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no entitlement")
      }
      group.entitlements[e].expiresAt = paidThrough.adding(ms: check.grace(store) + check.tolerance)

    case .playPending:
      // A purchase still pending: no money moved, no entitlement, no credential.
      let start = instant(&rng, from: t.adding(days: -5), to: t.adding(ms: -DemoCalendar.msPerHour), store)
      var c = try chain([
        DemoPeriod(product: monthly, start: start, end: nil, priceMinor: user.country.price(.monthly))
      ])
      c.pending = true
      group.chains.append(c)

    case .appleSandboxUnclaimed, .playTestUnclaimed:
      // A sandbox / tester purchase nobody claimed: not money, not an orphaned charge.
      var c = try chain(randomSubscription(monthly, user.country, &rng, store: store, requirePaid: true))
      c.sandbox = true
      group.chains.append(c)

    case .appleFamilySharedClean:
      // Family sharing with its own, correct entitlement.
      var c = try chainEnding(days: 2, 26)
      c.familyShared = true
      c.accountToken = nil
      addClean(c, userId: user.id, to: &group, &rng)

    case .appleBillingGrace:
      // Billing retry: paid through a few days before T, the app grants the 16-day grace period.
      let c = try chainEnding(days: -10, -3)
      guard let e = addClean(c, userId: user.id, to: &group, &rng), let paidThrough = c.paidThrough(at: t)
      else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no entitlement")
      }
      group.entitlements[e].status = .grace
      group.entitlements[e].expiresAt = paidThrough.adding(ms: check.graceApple)

    case .goodwillOnly:
      // Support's goodwill grant with its own entitlement and no store record.
      let start = instant(&rng, from: t.adding(days: -20), to: t.adding(days: -1), store)
      var grant = goodwillGrant(user.id, product: monthly.name, &rng)
      grant.startsAt = start
      grant.endsAt = start.adding(days: rng.pick([30, 90]))
      group.goodwill.append(grant)
      group.entitlements.append(grantEntitlement(user.id, .goodwill, grant.productId, start, grant.endsAt))

    case .promoOnly:
      // A promo entitlement with no store record.
      let start = instant(&rng, from: t.adding(days: -100), to: t.adding(days: -1), store)
      group.entitlements.append(
        grantEntitlement(
          user.id, .promo, DemoProduct.playYearly.name, start, rng.chance(300) ? nil : start.adding(days: 365)
        ))

    case .playSalesOnly:
      // A Play chain known only from its sales rows (no subscription resource), entitlement correct.
      let firstStart = DemoCalendar.clampedToDay28(
        instant(&rng, from: worldStart, to: t.adding(days: -9), store))
      let months = periodsBeforeT(anchor: firstStart, months: 1)
      var paid = 1
      while paid < months && rng.chance(850) { paid += 1 }
      let periods = subscriptionPeriods(
        monthly, user.country, firstStart: firstStart, trial: false, paidCount: paid)
      addClean(try chain(periods, resource: false), userId: user.id, to: &group, &rng)

    case .appleTrialConverted, .playTrialConverted:
      let periods = randomSubscription(
        monthly, user.country, &rng, store: store, trialPerMille: 1000, requirePaid: true)
      addClean(try chain(periods), userId: user.id, to: &group, &rng)

    case .appleTrialExpired, .playTrialExpired:
      let firstStart = instant(&rng, from: worldStart, to: t.adding(days: -8), store)
      let periods = subscriptionPeriods(
        monthly, user.country, firstStart: firstStart, trial: true, paidCount: 0)
      addClean(try chain(periods), userId: user.id, to: &group, &rng)

    default:
      break
    }
    return group
  }
}
