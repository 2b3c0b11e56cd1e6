/// Attribution and metrics: DESIGN.md, "Price-experiment readout". Pure: values in, values out.
extension Readout {
  /// Reads out every experiment as of the ledger's as-of instant.
  ///
  /// - Parameters:
  ///   - dayOf: the report day of an instant (the config's time zone).
  public static func build(
    experiments: [Experiment], ledger: Ledger, credentials: [Credential], assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> [Readout] {
    let users = ChainUsers(ledger: ledger, credentials: credentials)
    return experiments.map {
      read($0, users: users, ledger: ledger, assignments: assignments, settings: settings, dayOf: dayOf)
    }
  }

  static func read(
    _ experiment: Experiment, users: ChainUsers, ledger: Ledger, assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> Readout {
    let t = ledger.asOf
    let chains = ledger.chains
    let reportDate = dayOf(t.adding(ms: -1))
    let assigned = AssignedUsers(experiment: experiment, assignments: assignments, asOf: t, dayOf: dayOf)
    let arms = experiment.arms
    var tallies = Array(repeating: ArmTally(), count: arms.count)
    var lineageRows: [(arm: Int, row: LineageRow)] = []
    var gaps: [FXGap] = []
    let startDay = experiment.enrollStart.daysSinceEpoch

    for lineage in users.lineages {
      guard let user = users.user(ofLineage: lineage, ledger: ledger, assigned: assigned),
        let entry = assigned.entries[user]
      else { continue }
      let a = entry.arm
      let eligible = lineage.filter { chains[$0].production && !chains[$0].familyShared }
      tallies[a].chainsExcluded += lineage.count - eligible.count
      guard let head = eligible.first,
        let original = eligible.compactMap({ chains[$0].originalPurchaseAt }).min()
      else { continue }
      if entry.at > original {
        tallies[a].chainsAssignedAfterPurchase += eligible.count
        continue
      }

      // Credited: every paid charge of every eligible chain of the lineage.
      var position: [Int: Int] = [:]
      var charges: [CreditedCharge] = []
      for (n, i) in eligible.enumerated() {
        position[i] = n
        let chain = chains[i]
        if let product = chain.currentProduct ?? chain.purchases.first?.productId,
          !arms[a].offers(product, store: chain.store),
          arms.indices.contains(where: { $0 != a && arms[$0].offers(product, store: chain.store) })
        {
          tallies[a].chainsOfOtherArmsProducts += 1
        }
        guard !chain.pending else { continue }
        let paid = chain.purchases.filter {
          $0.amountMinor > 0 && $0.environment == .production && !$0.familyShared
        }
        guard let firstPaidAt = paid.map(\.at).min() else { continue }
        for purchase in paid {
          charges.append(
            CreditedCharge(
              purchase: purchase, chain: i, of: chain, chainFirstPaidAt: firstPaidAt, settings: settings,
              asOf: t,
              day: dayOf(purchase.at)))
        }
      }
      charges.sort { x, y in
        if x.purchase.at != y.purchase.at { return x.purchase.at < y.purchase.at }
        let px = position[x.chain] ?? 0
        let py = position[y.chain] ?? 0
        if px != py { return px < py }
        return ChainDerivation.purchaseOrder(x.purchase, y.purchase)
      }

      let headChain = chains[head]
      let trial = Readout.startedWithTrial(headChain)
      let lineageCurrency =
        charges.first?.currency ?? headChain.purchases.first?.currency ?? headChain.status?.currency
      // Move the arm's tally out (no copy of its dictionaries), update it, move it back.
      var tally = ArmTally()
      swap(&tally, &tallies[a])
      var person = tally.users[user] ?? ArmTally.User()
      if trial {
        person.trial = true
        if !charges.isEmpty { person.trialConverted = true }
        if person.trialCurrency == nil { person.trialCurrency = lineageCurrency }
      }

      // Maturity: a subscription purchase (paid, or at least a trial) whose first billing period has elapsed.
      let typed = charges.first?.purchase ?? headChain.purchases.first
      let subscription =
        typed.map { CreditedCharge.isSubscription(ChainDerivation.type(of: $0, catalog: settings.catalog)) }
        ?? true
      if subscription && (!charges.isEmpty || trial) {
        let mature: Bool
        if let first = charges.first {
          let period = settings.catalog.period(first.purchase.productId, store: first.purchase.store)
          mature = period.advance(first.purchase.at) <= t
        } else {
          mature = (eligible.compactMap { chains[$0].paidThrough }.max() ?? original) <= t
        }
        tally.reporting.subscriptionLineages += 1
        if mature { tally.reporting.matureLineages += 1 }
        if let c = lineageCurrency {
          tally.byCurrency[c, default: ArmTally.Totals()].subscriptionLineages += 1
          if mature { tally.byCurrency[c, default: ArmTally.Totals()].matureLineages += 1 }
        }
      }

      for (k, charge) in charges.enumerated() {
        var totals = tally.byCurrency[charge.currency] ?? ArmTally.Totals()
        totals.grossMinor += charge.grossMinor
        totals.proceedsMinor += charge.netProceedsMinor
        if charge.refunded {
          totals.refunds += 1
          totals.refundsMinor += charge.refundedMinor
          tally.reporting.refunds += 1
        }
        if k > 0 {
          totals.renewals += 1
          tally.reporting.renewals += 1
        }
        tally.byCurrency[charge.currency] = totals
        if let gross = charge.reportingGross, let refunded = charge.reportingRefunded,
          let net = charge.reportingNet
        {
          tally.reporting.grossMinor += gross
          tally.reporting.refundsMinor += refunded
          tally.reporting.proceedsMinor += net
          person.reportingNet += net
          tally.proceedsByDayIndex[Int(charge.day.daysSinceEpoch - startDay), default: 0] += net
        } else {
          gaps.append(
            FXGap(
              currency: charge.currency, day: charge.day, store: charge.purchase.store,
              chainKey: chains[charge.chain].key,
              transactionId: charge.purchase.transactionId))
        }
        person.net[charge.currency, default: 0] += charge.netProceedsMinor
        if person.firstPaidAt.map({ charge.purchase.at < $0 }) ?? true {
          person.firstPaidAt = charge.purchase.at
          person.firstPaidCurrency = charge.currency
        }
        while tally.renewalsByNumber.count <= k { tally.renewalsByNumber.append(0) }
        tally.renewalsByNumber[k] += 1
        lineageRows.append(
          (
            a,
            LineageRow(
              experimentId: experiment.id, armId: arms[a].id, userId: user, store: charge.purchase.store,
              chainKey: chains[charge.chain].key, transactionId: charge.purchase.transactionId,
              renewalNumber: k,
              chargedAt: charge.purchase.at, currency: charge.currency, grossMinor: charge.grossMinor,
              proceedsMinor: charge.netProceedsMinor, reportingMinor: charge.reportingNet)
          ))
      }
      tally.users[user] = person
      tallies[a] = tally
    }

    let counts = assigned.counts(arms: arms.count)
    let srm = ChiSquare.goodnessOfFit(observed: counts, weights: arms.map(\.weight))
    let columns = Array(Set(tallies.flatMap(\.currencies))).sorted()
    var armReadouts: [ArmReadout] = []
    var controlMeans: [Double] = []
    var controlSample = SampleSummary(count: 0, mean: 0, variance: 0)
    for (a, arm) in arms.enumerated() {
      let tally = tallies[a]
      let n = counts[a]
      let payers = tally.users.keys.sorted().compactMap { id -> [Int64]? in
        guard let u = tally.users[id] else { return nil }
        let row = [u.reportingNet] + columns.map { u.net[$0] ?? 0 }
        return row.contains { $0 != 0 } ? row : nil
      }
      var generator = SeededGenerator(
        seed: experiment.bootstrap.seed, stream: "\(experiment.id)\u{1F}\(arm.id)")
      let means = Bootstrap.means(
        users: n, payers: payers, columns: columns.count + 1, iterations: experiment.bootstrap.iterations,
        generator: &generator)
      let sample = SampleSummary(users: n, nonZero: payers.map { $0[0] })

      var reporting = row(
        .reporting, settings.reportingCurrency, tally.reporting, users: Array(tally.users.values),
        assigned: n, rounding: settings.rounding)
      reporting.revenuePerAssignedInterval = Bootstrap.percentileInterval(means[0])
      let currencyRows = tally.currencies.map { c -> ArmRow in
        var r = row(
          .currency, c, tally.byCurrency[c] ?? ArmTally.Totals(),
          users: tally.users.values.filter { $0.currency == c },
          assigned: n, rounding: settings.rounding)
        if let column = columns.firstIndex(of: c) {
          r.revenuePerAssignedInterval = Bootstrap.percentileInterval(means[column + 1])
        }
        return r
      }

      var difference: Difference?
      if a == 0 {
        controlMeans = means[0]
        controlSample = sample
      } else {
        let welch = WelchInterval.difference(sample, controlSample)
        let diffs = zip(means[0], controlMeans).map { $0 - $1 }
        difference = Difference(
          estimate: sample.mean - controlSample.mean, bootstrap: Bootstrap.percentileInterval(diffs),
          welch: welch?.interval, welchDegreesOfFreedom: welch?.degreesOfFreedom)
      }

      armReadouts.append(
        ArmReadout(
          arm: arm, reporting: reporting, currencies: currencyRows, verdict: .inconclusive,
          difference: difference,
          welch: WelchInterval.mean(sample), sample: sample,
          series: series(
            experiment, reportDate: reportDate, assigned: assigned, arm: a, tally: tally, dayOf: dayOf,
            rounding: settings.rounding),
          renewalsByNumber: tally.renewalsByNumber,
          chainsAssignedAfterPurchase: tally.chainsAssignedAfterPurchase,
          chainsExcluded: tally.chainsExcluded, chainsOfOtherArmsProducts: tally.chainsOfOtherArmsProducts))
    }

    lineageRows.sort { x, y in
      if x.arm != y.arm { return x.arm < y.arm }
      let a = x.row
      let b = y.row
      return (a.userId, a.chargedAt, a.store, a.chainKey, a.transactionId)
        < (b.userId, b.chargedAt, b.store, b.chainKey, b.transactionId)
    }
    gaps.sort {
      ($0.currency, $0.day, $0.store, $0.chainKey, $0.transactionId) < (
        $1.currency, $1.day, $1.store, $1.chainKey, $1.transactionId
      )
    }
    var readout = Readout(
      experiment: experiment, reportingCurrency: settings.reportingCurrency, reportDate: reportDate,
      arms: armReadouts,
      srm: srm, lineage: lineageRows.map(\.row), fxGaps: gaps,
      assignmentsOutsideWindow: assigned.outsideWindow,
      assignmentsToUnknownArms: assigned.unknownArm, repeatedAssignments: assigned.repeated,
      usersReassigned: assigned.reassignedUsers)
    readout.decideVerdicts()
    return readout
  }

  /// One arm row from its totals and its credited users.
  static func row(
    _ scope: ArmRow.Scope, _ currency: Currency, _ totals: ArmTally.Totals, users: [ArmTally.User],
    assigned: Int,
    rounding: RoundingRule
  ) -> ArmRow {
    var r = ArmRow(scope: scope, currency: currency)
    r.assigned = assigned
    r.trials = users.filter(\.trial).count
    r.trialConversions = users.filter(\.trialConverted).count
    r.paidConversions = users.filter { $0.firstPaidAt != nil }.count
    if assigned > 0 {
      r.conversionRate = Double(r.paidConversions) / Double(assigned)
      r.conversionInterval = WilsonInterval.interval(successes: r.paidConversions, trials: assigned)
      r.revenuePerAssignedMinor = rounding.divide(totals.proceedsMinor, by: Int64(assigned))
    }
    r.renewals = totals.renewals
    r.refunds = totals.refunds
    r.refundsMinor = totals.refundsMinor
    r.grossMinor = totals.grossMinor
    r.proceedsMinor = totals.proceedsMinor
    r.subscriptionLineages = totals.subscriptionLineages
    r.matureLineages = totals.matureLineages
    return r
  }

  /// The arm's cumulative revenue per assigned user, day by day from the first enrolment day.
  static func series(
    _ experiment: Experiment, reportDate: CivilDate, assigned: AssignedUsers, arm: Int, tally: ArmTally,
    dayOf: (Instant) -> CivilDate, rounding: RoundingRule
  ) -> [DailyPoint] {
    let start = experiment.enrollStart.daysSinceEpoch
    let days = Int(reportDate.daysSinceEpoch - start) + 1
    guard days > 0 else { return [] }
    var newUsers = Array(repeating: 0, count: days)
    for entry in assigned.entries.values where entry.arm == arm {
      let index = Int(dayOf(entry.at).daysSinceEpoch - start)
      if index >= 0 && index < days { newUsers[index] += 1 }
    }
    var points: [DailyPoint] = []
    var users = 0
    var proceeds: Int64 = 0
    for index in 0..<days {
      users += newUsers[index]
      proceeds += tally.proceedsByDayIndex[index] ?? 0
      points.append(
        DailyPoint(
          day: CivilDate(daysSinceEpoch: start + Int64(index)), dayIndex: index, assigned: users,
          cumulativeProceedsMinor: proceeds,
          revenuePerAssignedMinor: users > 0 ? rounding.divide(proceeds, by: Int64(users)) : nil))
    }
    return points
  }

  /// Whether a purchase began with a free period: an App Store free-trial transaction first; a Play
  /// chain whose earliest charged order is a renewal (`..N`: the initial order was free), or whose
  /// resource says it is in a free trial and nothing was charged yet.
  static func startedWithTrial(_ chain: Chain) -> Bool {
    if chain.store == .play {
      guard let first = chain.purchases.first else { return chain.status?.isTrial ?? false }
      return PlayOrderId.renewal(first.transactionId) != nil
    }
    return chain.purchases.first?.isTrial ?? false
  }

  /// Sets each arm's verdict: `srm`, then `fx_gap`, then `immature`, then control / leading / trailing /
  /// inconclusive by the bootstrap interval of the difference.
  mutating func decideVerdicts() {
    let threshold = experiment.maturityThreshold
    func immature(_ arm: ArmReadout) -> Bool { arm.reporting.matureShare.map { $0 < threshold } ?? false }
    let controlImmature = arms.first.map(immature) ?? false
    for i in arms.indices {
      if hasSampleRatioMismatch {
        arms[i].verdict = .srm
      } else if !fxGaps.isEmpty {
        arms[i].verdict = .fxGap
      } else if immature(arms[i]) || controlImmature {
        arms[i].verdict = .immature
      } else if i == 0 {
        arms[i].verdict = .control
      } else {
        switch arms[i].difference?.bootstrap?.signExcludingZero ?? 0 {
        case 1: arms[i].verdict = .leading
        case -1: arms[i].verdict = .trailing
        default: arms[i].verdict = .inconclusive
        }
      }
    }
  }
}
