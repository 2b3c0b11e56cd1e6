import StoreReconPlatform

/// Attribution and metrics: docs/reports.md#the-price-test-readout. Pure: values in, values out.
extension Readout {
  /// Reads out every experiment as of the ledger's as-of instant.
  ///
  /// - Parameters:
  ///   - dayOf: the report day of an instant (the config's time zone).
  package static func build(
    experiments: [Experiment], ledger: Ledger, credentials: [Credential], assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> [Readout] {
    var table = CredentialTable(pool: ledger.storage.pool)
    for c in credentials { table.append(c) }
    return build(
      experiments: experiments, ledger: ledger, credentials: table, assignments: assignments,
      settings: settings,
      dayOf: dayOf)
  }

  /// Reads out every experiment as of the ledger's as-of instant, from packed credentials.
  package static func build(
    experiments: [Experiment], ledger: Ledger, credentials: CredentialTable, assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> [Readout] {
    guard !experiments.isEmpty else { return [] }
    // Who bought which chain (shared by the experiments) and each experiment's assigned users, at once.
    // (Each experiment's users of the credential rows too: only the rows and the assigned users are needed.)
    let (users, assigned) = Parallel.pair(
      { ChainUsers(ledger: ledger, credentials: credentials) },
      {
        experiments.map { experiment -> (AssignedUsers, [Int32]) in
          let assigned = AssignedUsers(
            experiment: experiment, assignments: assignments, asOf: ledger.asOf, dayOf: dayOf)
          return (assigned, ChainUsers.claimerNumbers(credentials, assigned))
        }
      })
    return zip(experiments, assigned).map {
      read(
        $0, assigned: $1.0, claimers: $1.1, users: users, ledger: ledger, settings: settings, dayOf: dayOf)
    }
  }

  /// Per product variant of the ledger, as `settings.catalog` types it: whether it is a subscription
  /// (for fees and maturity), and its billing period.
  struct VariantFacts {
    var subscription: [Bool]
    var period: [BillingPeriod]

    init(_ products: ProductTable, catalog: Catalog) {
      subscription = []
      period = []
      for v in products.variants {
        let name = products.names[Int(v.name)]
        let type =
          catalog.product(name, store: v.store)?.type ?? ProductType(raw: products.types[Int(v.type)])
        subscription.append(CreditedCharge.isSubscription(type))
        period.append(catalog.period(name, store: v.store))
      }
    }
  }

  /// Credited users counted for the arm rows: trials, trial conversions and paid conversions.
  struct PersonCounts {
    var trials = 0
    var trialConversions = 0
    var paidConversions = 0
    var credited = 0

    mutating func count(_ p: ArmTally.Person) {
      credited += 1
      if p.trial { trials += 1 }
      if p.trialConverted { trialConversions += 1 }
      if p.firstPaidAt != PackedRecord.none { paidConversions += 1 }
    }
  }

  /// Reads out one experiment from its assigned users and the ledger's lineages.
  ///
  /// - Parameters:
  ///   - claimers: ``ChainUsers/claimerNumbers(_:_:)`` for `assigned`, when already worked out.
  ///   - creditParts: how many parts the crediting pass is cut into (default: one per core, for enough
  ///     lineages); the readout is the same for any number.
  package static func read(
    _ experiment: Experiment, assigned: AssignedUsers, claimers: [Int32]? = nil, users: ChainUsers,
    ledger: Ledger, settings: ExperimentSettings, dayOf: (Instant) -> CivilDate, creditParts: Int? = nil
  ) -> Readout {
    let s = ledger.storage
    let t = ledger.asOf
    let reportDate = dayOf(t.adding(ms: -1))
    let arms = experiment.arms
    let facts = VariantFacts(s.products, catalog: settings.catalog)
    // Which product names each arm offers, per store.
    let nameCount = s.products.names.count
    let offers: [[Bool]] = arms.map { arm in
      var flags = [Bool](repeating: false, count: nameCount * 3)
      for store in Store.allCases {
        for (i, name) in s.products.names.enumerated() where arm.offers(name, store: store) {
          flags[LedgerStorage.slot(store) * nameCount + i] = true
        }
      }
      return flags
    }
    let userCount = assigned.users.count
    let counts = assigned.counts(arms: arms.count)
    let owners = lineageOwners(
      users, ledger: s, assigned: assigned,
      claimers: claimers ?? ChainUsers.claimerNumbers(users.credentials, assigned))
    // Each user's place in (arm, user number) order.
    var places = [Int32](repeating: 0, count: userCount)
    do {
      var next = [Int32](repeating: 0, count: arms.count)
      for a in arms.indices.dropFirst() { next[a] = next[a - 1] + Int32(counts[a - 1]) }
      for n in 0..<userCount {
        let a = Int(assigned.arms[n])
        places[n] = next[a]
        next[a] += 1
      }
    }
    let startDay = experiment.enrollStart.daysSinceEpoch
    let days = max(0, Int(reportDate.daysSinceEpoch - startDay) + 1)
    let context = CreditContext(
      ledger: s, asOf: t, arms: arms, assigned: assigned, users: users, owners: owners, places: places,
      facts: facts, offers: offers, nameCount: nameCount, settings: settings, startDay: startDay, days: days)
    // The lineages by their users' places, then in lineage order: `lineages[first[p]..<first[p + 1]]`
    // are the lineages of the user at place p.
    var first = [Int32](repeating: 0, count: userCount + 1)
    for owner in owners where owner >= 0 { first[Int(places[Int(owner)]) + 1] += 1 }
    for p in 0..<userCount { first[p + 1] += first[p] }
    var lineages = [Int32](repeating: 0, count: Int(first[userCount]))
    do {
      var fill = first
      for (k, owner) in owners.enumerated() where owner >= 0 {
        let p = Int(places[Int(owner)])
        lineages[Int(fill[p])] = Int32(k)
        fill[p] += 1
      }
    }
    var people = Array(repeating: ArmTally.Person(), count: userCount)
    let parts = max(1, creditParts ?? Parallel.parts(for: owners.count, minimum: 50_000))
    let results: [CreditPart] = people.withUnsafeMutableBufferPointer { people in
      LedgerView.with(s) { view in
        Parallel.map(parts: parts) { part in
          let range = Parallel.range(part, of: parts, count: userCount)
          return credit(
            context, view, places: range,
            lineages: lineages[Int(first[range.lowerBound])..<Int(first[range.upperBound])], people: people,
            dayOf: dayOf)
        }
      }
    }
    var tallies = Array(repeating: ArmTally(days: days), count: arms.count)
    var gaps: [FXGap] = []
    var otherNet: [Int32: [Currency: Int64]] = [:]
    for result in results {
      for a in arms.indices { tallies[a].add(result.tallies[a]) }
      gaps += result.gaps
      otherNet.merge(result.otherNet) { $1 }
    }
    let lineageStorage = LineageRows.Storage(
      experimentId: experiment.id, armIds: arms.map(\.id), users: assigned.users, pool: s.pool,
      segments: results.map(\.items))

    let srm = ChiSquare.goodnessOfFit(observed: counts, weights: arms.map(\.weight))
    // Per arm: credited users counted for the reporting row and, by their currency, the currency rows.
    var everyone = Array(repeating: PersonCounts(), count: arms.count)
    var byCurrency = Array(
      repeating: Array(repeating: PersonCounts(), count: Currency.all.count), count: arms.count)
    var hasUsers = Array(repeating: Array(repeating: false, count: Currency.all.count), count: arms.count)
    for n in 0..<userCount where people[n].credited {
      let a = Int(assigned.arms[n])
      let p = people[n]
      everyone[a].count(p)
      if let c = p.currency {
        byCurrency[a][c.tableIndex].count(p)
        hasUsers[a][c.tableIndex] = true
      }
    }
    // Every currency an arm has a row for, sorted.
    let currenciesByArm: [[Currency]] = arms.indices.map { a in
      Currency.all.filter { tallies[a].hasRow[$0.tableIndex] || hasUsers[a][$0.tableIndex] }.sorted()
    }
    let columns = Set(currenciesByArm.joined()).sorted()
    var columnOf = [Int](repeating: -1, count: Currency.all.count)
    for (c, currency) in columns.enumerated() { columnOf[currency.tableIndex] = c + 1 }
    // Per arm: the payers' values (reporting, then each currency), users in id order, as 8-lane vectors.
    let width = columns.count + 1
    let lanes = (width + 7) / 8
    var rowsByArm = Array(repeating: [SIMD8<Int64>](), count: arms.count)
    var reportingByArm = Array(repeating: [Int64](), count: arms.count)
    for a in arms.indices {
      rowsByArm[a].reserveCapacity(everyone[a].credited * lanes)
      reportingByArm[a].reserveCapacity(everyone[a].credited)
    }
    people.withUnsafeBufferPointer { people in
      withUnsafeTemporaryAllocation(of: SIMD8<Int64>.self, capacity: lanes) { row in
        for n in 0..<userCount where people[n].credited {
          let p = people[n]
          for l in 0..<lanes { row[l] = SIMD8() }
          row[0][0] = p.reportingNet
          if p.netCurrency != 0, case let c = columnOf[Int(p.netCurrency) - 1], c > 0 {
            row[c / 8][c % 8] = p.net
          }
          if p.mixed, let other = otherNet[Int32(n)] {
            for (currency, net) in other where columnOf[currency.tableIndex] > 0 {
              let c = columnOf[currency.tableIndex]
              row[c / 8][c % 8] = net
            }
          }
          var any = false
          for l in 0..<lanes where row[l] != SIMD8() { any = true }
          guard any else { continue }
          let a = Int(assigned.arms[n])
          for l in 0..<lanes { rowsByArm[a].append(row[l]) }
          reportingByArm[a].append(p.reportingNet)
        }
      }
    }
    let samples = arms.indices.map { SampleSummary(users: counts[$0], nonZero: reportingByArm[$0]) }
    reportingByArm = []
    let meansByArm: [[[Double]]] = arms.indices.map { a in
      var generator = SeededGenerator(
        seed: experiment.bootstrap.seed, stream: "\(experiment.id)\u{1F}\(arms[a].id)")
      let rows = rowsByArm[a]
      rowsByArm[a] = []
      return Bootstrap.means(
        users: counts[a], rows: rows, columns: width, iterations: experiment.bootstrap.iterations,
        generator: &generator)
    }
    let newUsers = newUsersByDay(experiment, assigned: assigned, arms: arms.count, days: days, dayOf: dayOf)
    var armReadouts: [ArmReadout] = []
    var controlMeans: [Double] = []
    var controlSample = SampleSummary(count: 0, mean: 0, variance: 0)
    for (a, arm) in arms.enumerated() {
      let tally = tallies[a]
      let n = counts[a]
      let means = meansByArm[a]
      let sample = samples[a]

      var reporting = row(
        .reporting, settings.reportingCurrency, tally.reporting, users: everyone[a], assigned: n,
        rounding: settings.rounding)
      reporting.revenuePerAssignedInterval = Bootstrap.percentileInterval(means[0])
      let currencyRows = currenciesByArm[a].map { c -> ArmRow in
        var r = row(
          .currency, c, tally.byCurrency[c.tableIndex], users: byCurrency[a][c.tableIndex], assigned: n,
          rounding: settings.rounding)
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
            experiment, reportDate: reportDate, newUsers: newUsers[a], tally: tally,
            rounding: settings.rounding),
          renewalsByNumber: tally.renewalsByNumber,
          chainsAssignedAfterPurchase: tally.chainsAssignedAfterPurchase,
          chainsExcluded: tally.chainsExcluded, chainsOfOtherArmsProducts: tally.chainsOfOtherArmsProducts))
    }

    gaps.sort {
      ($0.currency, $0.day, $0.store, $0.chainKey, $0.transactionId) < (
        $1.currency, $1.day, $1.store, $1.chainKey, $1.transactionId
      )
    }
    var readout = Readout(
      experiment: experiment, reportingCurrency: settings.reportingCurrency, reportDate: reportDate,
      arms: armReadouts,
      srm: srm, lineage: LineageRows(storage: lineageStorage), fxGaps: gaps,
      assignmentsOutsideWindow: assigned.outsideWindow,
      assignmentsToUnknownArms: assigned.unknownArm, repeatedAssignments: assigned.repeated,
      usersReassigned: assigned.reassignedUsers)
    readout.decideVerdicts()
    return readout
  }

  /// Each lineage's user for one experiment (its number, or -1), on all cores.
  static func lineageOwners(
    _ users: ChainUsers, ledger s: LedgerStorage, assigned: AssignedUsers, claimers: [Int32]
  ) -> [Int32] {
    let count = users.lineageCount
    var owners = [Int32](repeating: -1, count: count)
    let parts = Parallel.parts(for: count, minimum: 100_000)
    owners.withUnsafeMutableBufferPointer { owners in
      _ = Parallel.map(parts: parts) { part in
        for k in Parallel.range(part, of: parts, count: count) {
          if let n = users.owner(
            ofLineage: users.lineage(k), ledger: s, assigned: assigned, claimers: claimers)
          {
            owners[k] = n
          }
        }
      }
    }
    return owners
  }

  /// One arm row from its totals and the counts of its credited users.
  static func row(
    _ scope: ArmRow.Scope, _ currency: Currency, _ totals: ArmTally.Totals, users: PersonCounts,
    assigned: Int,
    rounding: RoundingRule
  ) -> ArmRow {
    var r = ArmRow(scope: scope, currency: currency)
    r.assigned = assigned
    r.trials = users.trials
    r.trialConversions = users.trialConversions
    r.paidConversions = users.paidConversions
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

  /// Users assigned per arm and day (days since the first enrolment day, through the report day).
  static func newUsersByDay(
    _ experiment: Experiment, assigned: AssignedUsers, arms: Int, days: Int, dayOf: (Instant) -> CivilDate
  ) -> [[Int]] {
    var newUsers = Array(repeating: Array(repeating: 0, count: days), count: arms)
    let start = experiment.enrollStart.daysSinceEpoch
    for (n, at) in assigned.assignedAt.enumerated() {
      let index = Int(dayOf(Instant(ms: at)).daysSinceEpoch - start)
      if index >= 0 && index < days { newUsers[Int(assigned.arms[n])][index] += 1 }
    }
    return newUsers
  }

  /// The arm's cumulative revenue per assigned user, day by day from the first enrolment day.
  static func series(
    _ experiment: Experiment, reportDate: CivilDate, newUsers: [Int], tally: ArmTally, rounding: RoundingRule
  ) -> [DailyPoint] {
    let start = experiment.enrollStart.daysSinceEpoch
    let days = Int(reportDate.daysSinceEpoch - start) + 1
    guard days > 0 else { return [] }
    var points: [DailyPoint] = []
    var users = 0
    var proceeds: Int64 = 0
    for index in 0..<days {
      users += newUsers[index]
      proceeds += tally.proceedsByDayIndex[index]
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
  static func startedWithTrial(_ c: Int, _ s: LedgerView) -> Bool {
    let chain = s.chains[c]
    let range = s.purchases(c)
    if chain.store == .play {
      guard let first = range.first else {
        return chain.status >= 0 ? s.statuses[Int(chain.status)].isTrial : false
      }
      return renewal(s.record(at: first).transactionId, s.pool) != nil
    }
    return range.first.map { s.record(at: $0).isTrial } ?? false
  }

  /// The Play renewal number of a transaction id, if it has one (`..N`).
  static func renewal(_ id: PackedID, _ pool: TextPool) -> Int? {
    switch id.kind {
    case .playOrder: return id.playRenewal
    case .pooled: return PlayOrderId.renewal(pool.string(id.poolID))
    case .decimal, .empty: return nil
    }
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
