import StoreReconCore

/// Google Play installments base plans (docs/rules.md#commitment-plans): `pro:yearly-installments`, 12
/// monthly payments committed, each payment a renewal order (`GPA.….N`) of one month, the resource's
/// `autoRenewingPlan.installmentDetails` stating the committed and remaining payment counts.
extension DemoBuilder {
  /// Payments committed on the demo's installments base plan.
  static let installmentsCommitted = 12

  /// `count` monthly installments of the 12-payment commitment, the last ending at `paidThrough`, at
  /// the country's monthly price.
  func installmentPeriods(_ country: DemoCountry, endingAt paidThrough: Instant, count: Int) -> [DemoPeriod] {
    let anchor = DemoCalendar.addMonths(paidThrough, -count)
    var periods = subscriptionPeriods(
      .playInstallments, country, firstStart: anchor, trial: false, paidCount: count)
    let total = DemoBuilder.installmentsCommitted
    for k in periods.indices {
      periods[k].commitment = DemoCommitment(
        number: k + 1, total: total, endsAt: DemoCalendar.addMonths(anchor, total),
        priceMinor: periods[k].priceMinor * Int64(total))
    }
    return periods
  }

  /// The group of a Play installments scenario, `nil` for any other scenario.
  func installmentsGroup(_ scenario: DemoScenario, _ user: DemoUser, _ rng: inout DemoRandom) throws
    -> DemoGroup?
  {
    guard scenario.isInstallments else { return nil }
    var group = DemoGroup()
    /// An installments chain paid through `lower…upper` days from T, with 2 to 8 payments made; Play
    /// keeps charging (auto-renewal stays on while payments are committed).
    func chain(days lower: Int, _ upper: Int) throws -> DemoChain {
      let paidThrough = target(&rng, days: lower, upper, .play)
      var c = try playChain(
        user, installmentPeriods(user.country, endingAt: paidThrough, count: 2 + rng.below(7)), &rng)
      c.autoRenew = true
      return c
    }
    func plant(_ reason: String, _ key: String) {
      group.planted.append(
        PlantedFinding(kind: "free_entitlement", reason: reason, store: .play, chainKey: key, userId: user.id)
      )
    }
    @discardableResult func cleanRow(_ c: DemoChain) throws -> Int {
      guard let e = addClean(c, userId: user.id, to: &group, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no entitlement")
      }
      return e
    }

    switch scenario {
    case .playInstallmentsPaid:
      // Paid month by month, the app grants to the end of the month paid: nothing to report.
      try cleanRow(chain(days: 2, 26))

    case .playInstallmentsOldRefund:
      // An earlier installment refunded (a sales `Refund` row, an earnings `Charge refund`): its money
      // goes back, the commitment and access go on.
      var c = try chain(days: 2, 26)
      guard let index = olderPaidPeriod(c, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(c.key) has no earlier payment")
      }
      let at = instant(&rng, from: c.periods[index].start, to: c.periods[index + 1].start, .play)
      c.periods[index].revocation = DemoRevocation(kind: .playRefundRow, at: at)
      try cleanRow(c)

    case .playInstallmentsOnHold:
      // The next installment failed 3 to 20 days before T and Play retries on account hold (the
      // resource `SUBSCRIPTION_STATE_ON_HOLD`, its expiryTime the end of the month paid); the app says
      // on_hold.
      let c = try chain(days: -20, -3)
      let e = try cleanRow(c)
      group.entitlements[e].status = .onHold
      group.entitlements[e].expiresAt = c.paidThrough(at: t)

    case .playInstallmentsRefunded:
      // The current installment refunded, the app never heard: access runs to the month's end.
      var c = try chain(days: 5, 26)
      guard let at = refundInstant(c, &rng) else {
        throw DemoError.inconsistentTruth("\(scenario): no room to refund the current month of \(c.key)")
      }
      c.periods[c.periods.count - 1].revocation = DemoRevocation(kind: .playRefundRow, at: at)
      let e = try cleanRow(c)
      group.entitlements[e].status = .active
      group.entitlements[e].expiresAt = c.periods.last?.end
      plant("refunded", c.key)

    case .playInstallmentsWholeYear:
      // The app granted the whole commitment at the first payment: the months not paid yet are access
      // the customer has not paid for.
      let c = try chain(days: 2, 26)
      let e = try cleanRow(c)
      group.entitlements[e].expiresAt = c.periods.last?.commitment?.endsAt
      plant("overextended", c.key)

    default:
      return nil
    }
    return group
  }
}

extension DemoChain {
  /// The Play resource's `installmentDetails` (committed and remaining payments), from the latest
  /// payment's place in its commitment; `nil` for a chain on no installments plan.
  var installmentCounts: (initial: Int, remaining: Int)? {
    guard store == .play, let c = periods.last?.commitment else { return nil }
    return (c.total, max(0, c.total - c.number))
  }

  /// A Play installments chain whose month paid is over while auto-renewal is on: Play is retrying the
  /// next installment, the subscription on account hold.
  func isOnHold(at t: Instant) -> Bool {
    guard installmentCounts != nil, !pending, autoRenew, let expiry = playExpiry else { return false }
    return expiry <= t
  }
}

extension DemoOutputs {
  /// Opens a resource line item's `autoRenewingPlan` (`autoRenewEnabled`, then an installments plan's
  /// `installmentDetails`) in ``line``; the caller writes the rest of it.
  func appendAutoRenewingPlan(_ chain: DemoChain, enabled: Bool) {
    line.raw(
      enabled
        ? ",\"autoRenewingPlan\":{\"autoRenewEnabled\":true"
        : ",\"autoRenewingPlan\":{\"autoRenewEnabled\":false")
    guard let counts = chain.installmentCounts else { return }
    line.raw(",\"installmentDetails\":{\"initialCommittedPaymentsCount\":")
    line.int(Int64(counts.initial))
    line.raw(",\"remainingCommittedPaymentsCount\":")
    line.int(Int64(counts.remaining))
    line.raw("}")
  }
}
