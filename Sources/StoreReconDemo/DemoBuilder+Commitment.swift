import StoreReconCore

/// App Store monthly subscriptions with a 12-month commitment (docs/rules.md#commitment-plans): the
/// yearly product paid month by month, each payment its own transaction of one month.
extension DemoBuilder {
  /// `count` monthly payments of the yearly product's 12-month commitment, the last ending at
  /// `paidThrough`, at the country's monthly price.
  func commitmentPeriods(_ country: DemoCountry, endingAt paidThrough: Instant, count: Int) -> [DemoPeriod] {
    let anchor = DemoCalendar.addMonths(paidThrough, -count)
    let price = country.price(.monthly)
    let commitment = DemoCommitment(
      number: 0, total: 12, endsAt: DemoCalendar.addMonths(anchor, 12), priceMinor: price * 12)
    return (0..<count).map { k in
      var p = DemoPeriod(
        product: .appleYearly, start: DemoCalendar.addMonths(anchor, k),
        end: DemoCalendar.addMonths(anchor, k + 1), priceMinor: price)
      p.commitment = commitment
      p.commitment?.number = k + 1
      return p
    }
  }

  /// The group of a commitment scenario, `nil` for any other scenario.
  func commitmentGroup(_ scenario: DemoScenario, _ user: DemoUser, _ rng: inout DemoRandom) throws
    -> DemoGroup?
  {
    var group = DemoGroup()
    /// A commitment chain paid through `lower…upper` days from T, with 2 to 8 payments made.
    func chain(days lower: Int, _ upper: Int) -> DemoChain {
      let paidThrough = target(&rng, days: lower, upper, .appStore)
      return appleChain(
        user, commitmentPeriods(user.country, endingAt: paidThrough, count: 2 + rng.below(7)), &rng)
    }
    func plant(_ reason: String, _ key: String) {
      group.planted.append(
        PlantedFinding(
          kind: "free_entitlement", reason: reason, store: .appStore, chainKey: key, userId: user.id))
    }
    @discardableResult func cleanRow(_ c: DemoChain) throws -> Int {
      guard let e = addClean(c, userId: user.id, to: &group, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no entitlement")
      }
      return e
    }

    switch scenario {
    case .appleCommitmentPaid:
      // Paid month by month, the app grants to the end of the month paid: nothing to report.
      try cleanRow(chain(days: 2, 26))

    case .appleCommitmentOldRefund:
      // An earlier month refunded: its money goes back, the commitment and access go on.
      var c = chain(days: 2, 26)
      guard let index = olderPaidPeriod(c, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no earlier payment")
      }
      let at = instant(&rng, from: c.periods[index].start, to: c.periods[index + 1].start, .appStore)
      c.periods[index].revocation = DemoRevocation(kind: .refundFull, at: at)
      try cleanRow(c)

    case .appleCommitmentRetry:
      // The last month ended a few days before T and Apple is retrying; the app says billing_retry.
      let c = chain(days: -20, -3)
      let e = try cleanRow(c)
      group.entitlements[e].status = .billingRetry
      group.entitlements[e].expiresAt = c.paidThrough(at: t)

    case .appleCommitmentRefunded:
      // The current month refunded, the app never heard: access runs to the month's end.
      var c = chain(days: 5, 26)
      guard let at = refundInstant(c, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): no room to refund the current month of \(c.key)")
      }
      c.periods[c.periods.count - 1].revocation = DemoRevocation(kind: .refundFull, at: at)
      let e = try cleanRow(c)
      group.entitlements[e].status = .active
      group.entitlements[e].expiresAt = c.periods.last?.end
      plant("refunded", c.key)

    case .appleCommitmentNoGrace:
      // Apple is retrying; the app grants the usual 16-day grace, which a commitment plan does not have.
      let c = chain(days: -10, -3)
      let e = try cleanRow(c)
      guard let paidThrough = c.paidThrough(at: t) else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) is paid through nothing")
      }
      group.entitlements[e].status = .grace
      group.entitlements[e].expiresAt = paidThrough.adding(ms: check.graceApple)
      plant("store_expired", c.key)

    default:
      return nil
    }
    return group
  }
}
