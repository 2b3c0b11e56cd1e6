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
    var table = PackedCredentials(pool: ledger.storage.pool)
    for c in credentials { table.append(c) }
    return build(
      experiments: experiments, ledger: ledger, credentials: table, assignments: assignments,
      settings: settings,
      dayOf: dayOf)
  }

  /// Reads out every experiment as of the ledger's as-of instant, from packed credentials.
  package static func build(
    experiments: [Experiment], ledger: Ledger, credentials: PackedCredentials, assignments: [Assignment],
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
      compute(
        $0, assigned: $1.0, claimers: $1.1, users: users, ledger: ledger, settings: settings, dayOf: dayOf)
    }
  }

  /// Per product variant of the ledger, as `settings.catalog` types it: whether it is a subscription
  /// (for fees and maturity), and its billing period.
  struct VariantFacts {
    var subscription: [Bool]
    var period: [BillingPeriod]

    init(_ products: ProductNames, catalog: Catalog) {
      subscription = []
      period = []
      for v in products.variants {
        let name = products.names[Int(v.name)]
        let type =
          catalog.product(name, store: v.store)?.type ?? ProductType(raw: products.types[Int(v.type)])
        subscription.append(ChargeMoney.isSubscription(type))
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

  /// Reads out one experiment from its assigned users and the ledger's lineages: each user's lineages
  /// are credited (on all cores), the parts' tallies added up, the payers' values bootstrapped, and
  /// each arm's rows, curve and verdict worked out.
  ///
  /// - Parameters:
  ///   - claimers: ``ChainUsers/claimerNumbers(_:_:)`` for `assigned`, when already worked out.
  ///   - creditParts: how many parts the crediting pass is cut into (default: one per core, for enough
  ///     lineages); the readout is the same for any number.
  package static func compute(
    _ experiment: Experiment, assigned: AssignedUsers, claimers: [Int32]? = nil, users: ChainUsers,
    ledger: Ledger, settings: ExperimentSettings, dayOf: (Instant) -> CivilDate, creditParts: Int? = nil
  ) -> Readout {
    var pass = credited(
      experiment, assigned: assigned, claimers: claimers, users: users, ledger: ledger, settings: settings,
      dayOf: dayOf, creditParts: creditParts)
    var people = pass.people
    pass.people = []
    let (totals, lineageStorage, reportDate, days) = (pass.totals, pass.lineage, pass.reportDate, pass.days)
    return finish(
      experiment, assigned: assigned, people: &people, totals: totals, lineage: lineageStorage,
      reportDate: reportDate, days: days, settings: settings, dayOf: dayOf)
  }

  /// The readout from the crediting pass's results (one run's, or a partitioned run's added up):
  /// the sample-ratio test, the arm rows, the bootstrap and the verdicts.
  static func finish(
    _ experiment: Experiment, assigned: AssignedUsers, people: inout [ArmTally.Person], totals: CreditTotals,
    lineage lineageStorage: CreditedCharges.Storage, reportDate: CivilDate, days: Int,
    settings: ExperimentSettings,
    dayOf: (Instant) -> CivilDate
  ) -> Readout {
    let arms = experiment.arms
    let counts = assigned.counts(arms: arms.count)
    let srm = ChiSquare.goodnessOfFit(observed: counts, weights: arms.map(\.weight))
    let credited = CreditedUsers(people, arms: assigned.arms, armCount: arms.count)
    let columns = CurrencyColumns(tallies: totals.tallies, credited: credited)
    var payers = PayerRows(
      people, otherNet: totals.otherNet, arms: assigned.arms, credited: credited, columns: columns)
    people = []
    let samples = arms.indices.map { SampleSummary(users: counts[$0], nonZero: payers.reporting[$0]) }
    payers.reporting = []
    let means = bootstrapMeans(experiment, counts: counts, payers: &payers, width: columns.width)
    let newUsers = newUsersByDay(experiment, assigned: assigned, arms: arms.count, days: days, dayOf: dayOf)
    let armReadouts = self.armReadouts(
      experiment, counts: counts, tallies: totals.tallies, credited: credited, columns: columns, means: means,
      samples: samples, newUsers: newUsers, reportDate: reportDate, settings: settings)
    var readout = Readout(
      experiment: experiment, reportingCurrency: settings.reportingCurrency, reportDate: reportDate,
      arms: armReadouts,
      srm: srm, lineage: CreditedCharges(storage: lineageStorage), fxGaps: totals.sortedGaps(),
      assignmentsOutsideWindow: assigned.outsideWindow,
      assignmentsToUnknownArms: assigned.unknownArm, repeatedAssignments: assigned.repeated,
      usersReassigned: assigned.reassignedUsers)
    readout.decideVerdicts()
    return readout
  }

  /// Per arm, which product names it offers per store: `offers[arm][slot * names + name]`, `slot` as
  /// ``LedgerStorage/slot(_:)`` numbers the stores.
  static func offers(_ arms: [ExperimentArm], _ products: ProductNames) -> [[Bool]] {
    let nameCount = products.names.count
    return arms.map { arm in
      var flags = [Bool](repeating: false, count: nameCount * 3)
      for store in Store.allCases {
        for (i, name) in products.names.enumerated() where arm.offers(name, store: store) {
          flags[LedgerStorage.slot(store) * nameCount + i] = true
        }
      }
      return flags
    }
  }

  /// Each user's place in (arm, user number) order; `counts`: the users per arm.
  static func places(_ assigned: AssignedUsers, counts: [Int]) -> [Int32] {
    var places = [Int32](repeating: 0, count: assigned.users.count)
    var next = [Int32](repeating: 0, count: counts.count)
    for a in counts.indices.dropFirst() { next[a] = next[a - 1] + Int32(counts[a - 1]) }
    for n in places.indices {
      let a = Int(assigned.arms[n])
      places[n] = next[a]
      next[a] += 1
    }
    return places
  }

  /// Credits every owned lineage: the users (by place) are cut into `parts` contiguous parts (default:
  /// one per core, for enough lineages), each crediting its users' lineages on its own core. Returns
  /// every user's entry (by user number) and each part's results, in part order.
  static func creditAll(_ c: CreditContext, parts: Int?, dayOf: (Instant) -> CivilDate) -> (
    people: [ArmTally.Person], parts: [CreditPart]
  ) {
    let userCount = c.places.count
    // The lineages by their users' places, then in lineage order: `lineages[first[p]..<first[p + 1]]`
    // are the lineages of the user at place p.
    var first = [Int32](repeating: 0, count: userCount + 1)
    for owner in c.owners where owner >= 0 { first[Int(c.places[Int(owner)]) + 1] += 1 }
    for p in 0..<userCount { first[p + 1] += first[p] }
    var lineages = [Int32](repeating: 0, count: Int(first[userCount]))
    var fill = first
    for (k, owner) in c.owners.enumerated() where owner >= 0 {
      let p = Int(c.places[Int(owner)])
      lineages[Int(fill[p])] = Int32(k)
      fill[p] += 1
    }
    fill = []
    var people = Array(repeating: ArmTally.Person(), count: userCount)
    let parts = max(1, parts ?? Parallel.parts(for: c.owners.count, minimum: 50_000))
    let results: [CreditPart] = LedgerView.with(c.ledger) { view in
      Parallel.map(parts: parts, sharing: &people) { part, people in
        let range = Parallel.range(part, of: parts, count: userCount)
        return credit(
          c, view, places: range,
          lineages: lineages[Int(first[range.lowerBound])..<Int(first[range.upperBound])], people: people,
          dayOf: dayOf)
      }
    }
    return (people, results)
  }

  /// The crediting parts' tallies, FX gaps and other-currency nets, added up.
  struct CreditTotals {
    var tallies: [ArmTally]
    var gaps: [FXGap] = []
    var otherNet: [Int32: [Currency: Int64]] = [:]

    init(arms: Int, days: Int) { tallies = Array(repeating: ArmTally(days: days), count: arms) }

    /// Adds one part's results (after the parts before it).
    mutating func add(_ part: CreditPart) {
      for a in tallies.indices { tallies[a].add(part.tallies[a]) }
      gaps += part.gaps
      otherNet.merge(part.otherNet) { $1 }
    }

    /// The FX gaps by currency, day, store, chain key and transaction id.
    func sortedGaps() -> [FXGap] {
      gaps.sorted {
        ($0.currency, $0.day, $0.store, $0.chainKey, $0.transactionId) < (
          $1.currency, $1.day, $1.store, $1.chainKey, $1.transactionId
        )
      }
    }
  }

  /// Per arm, the credited users counted for the reporting row and, by their currency, the currency
  /// rows.
  struct CreditedUsers {
    var everyone: [PersonCounts]
    /// `byCurrency[arm][currency table index]`.
    var byCurrency: [[PersonCounts]]
    /// `hasUsers[arm][currency table index]`: a credited user of the arm is counted under the currency.
    var hasUsers: [[Bool]]

    /// The counts of `people` (by user number), whose arms are `arms`.
    init(_ people: [ArmTally.Person], arms: [UInt16], armCount: Int) {
      everyone = Array(repeating: PersonCounts(), count: armCount)
      byCurrency = Array(
        repeating: Array(repeating: PersonCounts(), count: Currency.all.count), count: armCount)
      hasUsers = Array(repeating: Array(repeating: false, count: Currency.all.count), count: armCount)
      for n in people.indices where people[n].credited {
        let a = Int(arms[n])
        let p = people[n]
        everyone[a].count(p)
        if let c = p.currency {
          byCurrency[a][c.tableIndex].count(p)
          hasUsers[a][c.tableIndex] = true
        }
      }
    }
  }

  /// The currencies the arms have rows for, and the bootstrap's value columns: column 0 the reporting
  /// currency, then one per currency any arm has a row for (sorted).
  struct CurrencyColumns {
    /// Per arm, every currency it has a row for, sorted.
    let byArm: [[Currency]]
    /// The currencies of columns 1, 2, …
    let currencies: [Currency]
    /// Per currency table index: its column, or -1.
    let columnOf: [Int]

    /// The columns of arms with `tallies` and `credited` users.
    init(tallies: [ArmTally], credited: CreditedUsers) {
      byArm = tallies.indices.map { a in
        Currency.all.filter { tallies[a].hasRow[$0.tableIndex] || credited.hasUsers[a][$0.tableIndex] }
          .sorted()
      }
      currencies = Set(byArm.joined()).sorted()
      var columnOf = [Int](repeating: -1, count: Currency.all.count)
      for (c, currency) in currencies.enumerated() { columnOf[currency.tableIndex] = c + 1 }
      self.columnOf = columnOf
    }

    /// Values per user: the reporting currency and each currency column.
    var width: Int { currencies.count + 1 }
    /// 8-lane vectors per user.
    var lanes: Int { (width + 7) / 8 }
  }

  /// Per arm, the payers' values for the bootstrap, users in number order: each payer's row of
  /// ``CurrencyColumns/lanes`` vectors (net proceeds in the reporting currency, then in each currency
  /// column), and their reporting-currency nets. A credited user whose values are all zero is no payer.
  struct PayerRows {
    var rows: [[SIMD8<Int64>]]
    var reporting: [[Int64]]

    /// The payers among `people` (by user number, in arms `arms`).
    init(
      _ people: [ArmTally.Person], otherNet: [Int32: [Currency: Int64]], arms: [UInt16],
      credited: CreditedUsers, columns: CurrencyColumns
    ) {
      let lanes = columns.lanes
      let columnOf = columns.columnOf
      rows = Array(repeating: [], count: credited.everyone.count)
      reporting = Array(repeating: [], count: credited.everyone.count)
      for (a, users) in credited.everyone.enumerated() {
        rows[a].reserveCapacity(users.credited * lanes)
        reporting[a].reserveCapacity(users.credited)
      }
      var row = [SIMD8<Int64>](repeating: SIMD8(), count: lanes)
      for n in people.indices where people[n].credited {
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
        guard row.contains(where: { $0 != SIMD8() }) else { continue }
        let a = Int(arms[n])
        rows[a].append(contentsOf: row)
        reporting[a].append(p.reportingNet)
      }
    }
  }

  /// Per arm, the bootstrap's per-resample means of each column (`means[arm][column][iteration]`),
  /// from each arm's own seeded stream; frees the payers' rows as it goes.
  static func bootstrapMeans(
    _ experiment: Experiment, counts: [Int], payers: inout PayerRows, width: Int
  ) -> [[[Double]]] {
    experiment.arms.indices.map { a in
      var generator = SeededGenerator(
        seed: experiment.bootstrap.seed, stream: "\(experiment.id)\u{1F}\(experiment.arms[a].id)")
      let rows = payers.rows[a]
      payers.rows[a] = []
      return Bootstrap.means(
        users: counts[a], rows: rows, columns: width, iterations: experiment.bootstrap.iterations,
        generator: &generator)
    }
  }

  /// Each arm's readout: its reporting and currency rows with their bootstrap intervals, the
  /// difference to control (bootstrap and Welch), its curve and counts; verdicts are decided after.
  static func armReadouts(
    _ experiment: Experiment, counts: [Int], tallies: [ArmTally], credited: CreditedUsers,
    columns: CurrencyColumns, means meansByArm: [[[Double]]], samples: [SampleSummary], newUsers: [[Int]],
    reportDate: CivilDate, settings: ExperimentSettings
  ) -> [ArmReadout] {
    var armReadouts: [ArmReadout] = []
    var controlMeans: [Double] = []
    var controlSample = SampleSummary(count: 0, mean: 0, variance: 0)
    for (a, arm) in experiment.arms.enumerated() {
      let tally = tallies[a]
      let n = counts[a]
      let means = meansByArm[a]
      let sample = samples[a]

      var reporting = row(
        .reporting, settings.reportingCurrency, tally.reporting, users: credited.everyone[a], assigned: n,
        rounding: settings.rounding)
      reporting.revenuePerAssignedInterval = Bootstrap.percentileInterval(means[0])
      let currencyRows = columns.byArm[a].map { c -> ArmRow in
        var r = row(
          .currency, c, tally.byCurrency[c.tableIndex], users: credited.byCurrency[a][c.tableIndex],
          assigned: n, rounding: settings.rounding)
        if let column = columns.currencies.firstIndex(of: c) {
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
          welch: welch?.interval, welchDegreesOfFreedom: welch?.degreesOfFreedom,
          relativeLift: ArmComparison.lift(arm: sample.mean, control: controlSample.mean),
          relativeLiftInterval: ArmComparison.liftInterval(arm: means[0], control: controlMeans))
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
          chainsExcluded: tally.chainsExcluded, chainsOfOtherArmsProducts: tally.chainsOfOtherArmsProducts,
          maturesAt: maturesAt(
            reporting, immature: tally.immatureUntil, threshold: experiment.maturityThreshold)))
    }
    if let best = ArmComparison.probabilityBest(meansByArm.map { $0.first ?? [] }) {
      for a in armReadouts.indices { armReadouts[a].probabilityBest = best[a] }
    }
    return armReadouts
  }

  /// Each lineage's user for one experiment (its number, or -1), on all cores.
  static func lineageOwners(
    _ users: ChainUsers, ledger s: LedgerStorage, assigned: AssignedUsers, claimers: [Int32]
  ) -> [Int32] {
    var owners = [Int32](repeating: -1, count: users.lineageCount)
    let parts = Parallel.parts(for: owners.count, minimum: 100_000)
    _ = Parallel.map(parts: parts, filling: &owners) { range, owners in
      for k in range {
        if let n = users.owner(ofLineage: users.lineage(k), ledger: s, assigned: assigned, claimers: claimers)
        {
          owners[k] = n
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
    r.charges = totals.charges
    r.settledCharges = totals.settledCharges
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
  static func startedWithTrial(_ c: Int, _ s: borrowing LedgerView) -> Bool {
    let chain = s.chain(c)
    let range = s.purchases(c)
    if chain.store == .play {
      guard let first = range.first else { return s.status(ofChain: c)?.isTrial ?? false }
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

  /// When an arm's mature share reaches `threshold` with the lineages credited so far: the instant the
  /// lineage that takes it there matures (the immature ones mature in order of `immature`); `nil` when
  /// the arm is mature already or has no credited subscription.
  static func maturesAt(_ row: ArmRow, immature: [Int64], threshold: Double) -> Instant? {
    let total = row.subscriptionLineages
    guard total > 0 else { return nil }
    let ordered = immature.sorted()
    var mature = row.matureLineages
    var at: Int64? = nil
    for instant in ordered {
      guard Double(mature) / Double(total) < threshold else { break }
      mature += 1
      at = instant
    }
    return at.map { Instant(ms: $0) }
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
