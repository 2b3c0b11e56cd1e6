import StoreReconCore

/// Refunds one source shows and the others do not (docs/rules.md#every-source-of-a-refund): each
/// planted one makes its still-active entitlement `refunded`; the Play reports' ones are also the
/// order tie-out's `refund_not_in_…` row of the report that is behind. The trap: a refund Apple
/// reversed, which must stay silent.
extension DemoBuilder {
  /// The group of a one-source refund scenario, `nil` for any other scenario.
  func oneSourceRefundGroup(_ scenario: DemoScenario, _ user: DemoUser, _ rng: inout DemoRandom) throws
    -> DemoGroup?
  {
    guard scenario.isOneSourceRefund else { return nil }
    var group = DemoGroup()
    func keepActive(_ chain: DemoChain, naming words: String) throws {
      try keepRefundedActive(chain, naming: words, user, &group, &rng)
    }

    switch scenario {
    case .playEarningsRefundOnly, .playSalesRefundOnly:
      // A lifetime unlock refunded in an earnings month: only the earnings report's `Charge refund`
      // shows it (refunded in Play Console: no sales row, no voided purchase), or only a sales `Refund`
      // row (the earnings report of its month lacks it).
      let at = instantInEarningsMonth(&rng)
      let bought = instant(&rng, from: max(worldStart, at.adding(days: -40)), to: at.adding(days: -1), .play)
      var chain = try playChain(
        user, [oneTimePeriod(.playLifetime, user.country, at: bought)], &rng, resource: false)
      let earnings = scenario == .playEarningsRefundOnly
      chain.periods[0].revocation = DemoRevocation(
        kind: earnings ? .playEarningsRefund : .playRefundRowOnly, at: at)
      try keepActive(
        chain, naming: DemoRefundSourceCheck.play(earnings ? "earnings Charge refund" : "refund row"))

    case .playVoidOnly:
      // A yearly subscription voided in an earnings month: the voided-purchases list has it, neither
      // report does (the list is not held to the reports, nor they to it: no tie-out row).
      let at = instantInEarningsMonth(&rng)
      let bought = instant(&rng, from: max(worldStart, at.adding(days: -40)), to: at.adding(days: -1), .play)
      var periods = subscriptionPeriods(
        .playYearly, user.country, firstStart: bought, trial: false, paidCount: 1)
      periods[0].revocation = DemoRevocation(kind: .playVoid, at: at)
      try keepActive(
        try playChain(user, periods, &rng), naming: DemoRefundSourceCheck.play("voided purchase"))

    case .appleRefundNoticeOnly:
      // A yearly subscription refunded 31 to 90 days before T: the transaction feed was read before the
      // refund (no `revocationDate`), and Apple's notification history no longer reaches back; only
      // the REFUND notification in the app's log knows it.
      let at = instant(&rng, from: t.adding(days: -90), to: t.adding(days: -31), .appStore)
      let bought = instant(
        &rng, from: max(worldStart, t.adding(days: -300)), to: at.adding(days: -1), .appStore)
      var periods = subscriptionPeriods(
        .appleYearly, user.country, firstStart: bought, trial: false, paidCount: 1)
      periods[0].revocation = DemoRevocation(kind: .refundFull, at: at, inFeed: false)
      try keepActive(appleChain(user, periods, &rng), naming: DemoRefundSourceCheck.appLogOnly)

    case .appleRefundReversed:
      // The current month refunded, then the refund reversed: the app's log holds the REFUND (with the
      // revoked transaction, which would win over the feed's copy) and the REFUND_REVERSED; the feed,
      // read after the reversal, has no `revocationDate`. Access goes on, nothing to report.
      let paidThrough = target(&rng, days: 5, 20, .appStore)
      var chain = appleChain(
        user, periodsEnding(at: paidThrough, .appleMonthly, user.country, &rng, minimumPaid: 1), &rng)
      guard let last = chain.periods.last else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(chain.key) has no purchase")
      }
      let at = instant(
        &rng, from: last.start.adding(ms: DemoCalendar.msPerHour), to: last.start.adding(days: 4), .appStore)
      let reversed = instant(
        &rng, from: at.adding(ms: DemoCalendar.msPerHour), to: at.adding(days: 4), .appStore)
      chain.periods[chain.periods.count - 1].revocation = DemoRevocation(
        kind: .refundFull, at: at, inFeed: false, reversedAt: reversed)
      guard addClean(chain, userId: user.id, to: &group, &rng) != nil else {
        throw DemoError.inconsistentTruth("\(scenario): chain \(chain.key) has no entitlement")
      }

    default:
      return nil
    }
    return group
  }

  /// An instant inside one of the months the Play earnings reports cover, a day clear of its edges
  /// (the earnings report dates its rows on the Pacific day).
  func instantInEarningsMonth(_ rng: inout DemoRandom) -> Instant {
    let month = rng.pick(DemoStoreReports.earningsMonths(t: t)).startUTC
    return instant(
      &rng, from: month.adding(days: 1), to: DemoCalendar.addMonths(month, 1).adding(days: -1), .play)
  }

  /// Adds refunded `chain` with a credential and an entitlement the app never took back (active, to
  /// the refunded period's end; none for a lifetime unlock), the `refunded` finding it plants, and the
  /// words that finding's detail must hold.
  func keepRefundedActive(
    _ chain: DemoChain, naming words: String, _ user: DemoUser, _ group: inout DemoGroup,
    _ rng: inout DemoRandom
  ) throws {
    group.refundSources[chain.key] = words
    let e = try addKeyed(chain, user.id, &group, &rng)
    group.entitlements[e].status = .active
    group.entitlements[e].expiresAt = chain.periods.last?.end
    group.planted.append(
      PlantedFinding(
        kind: "free_entitlement", reason: "refunded", store: chain.store, chainKey: chain.key,
        userId: user.id))
  }
}
