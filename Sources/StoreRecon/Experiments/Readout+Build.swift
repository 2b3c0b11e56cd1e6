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
    var table = CredentialTable(pool: ledger.storage.pool)
    for c in credentials { table.append(c) }
    return build(
      experiments: experiments, ledger: ledger, credentials: table, assignments: assignments,
      settings: settings,
      dayOf: dayOf)
  }

  /// Reads out every experiment as of the ledger's as-of instant, from packed credentials.
  public static func build(
    experiments: [Experiment], ledger: Ledger, credentials: CredentialTable, assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> [Readout] {
    guard !experiments.isEmpty else { return [] }
    let users = ChainUsers(ledger: ledger, credentials: credentials)
    return experiments.map {
      read($0, users: users, ledger: ledger, assignments: assignments, settings: settings, dayOf: dayOf)
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

  static func read(
    _ experiment: Experiment, users: ChainUsers, ledger: Ledger, assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> Readout {
    let s = ledger.storage
    let t = ledger.asOf
    let reportDate = dayOf(t.adding(ms: -1))
    let assigned = AssignedUsers(experiment: experiment, assignments: assignments, asOf: t, dayOf: dayOf)
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
    let lineageStorage = LineageRows.Storage(
      experimentId: experiment.id, armIds: arms.map(\.id), users: assigned.users, pool: s.pool)
    var tallies = Array(repeating: ArmTally(), count: arms.count)
    var people = Array(repeating: ArmTally.Person(), count: assigned.users.count)
    var otherNet: [Int32: [Currency: Int64]] = [:]
    var gaps: [FXGap] = []
    let startDay = experiment.enrollStart.daysSinceEpoch
    var eligible: [Int] = []
    var charges: [CreditedCharge] = []

    for k in 0..<users.lineageCount {
      let lineage = users.lineage(k)
      guard let user = users.user(ofLineage: lineage, ledger: ledger, assigned: assigned),
        let entry = assigned.entries[user]
      else { continue }
      let a = entry.arm
      eligible.removeAll(keepingCapacity: true)
      var original = PackedRecord.none
      for i in lineage {
        let chain = s.chains[Int(i)]
        guard chain.production && !chain.familyShared else { continue }
        eligible.append(Int(i))
        if chain.originalPurchaseAt != PackedRecord.none {
          original =
            original == PackedRecord.none ? chain.originalPurchaseAt : min(original, chain.originalPurchaseAt)
        }
      }
      tallies[a].chainsExcluded += lineage.count - eligible.count
      guard let head = eligible.first, original != PackedRecord.none else { continue }
      if entry.at.ms > original {
        tallies[a].chainsAssignedAfterPurchase += eligible.count
        continue
      }

      // Credited: every paid charge of every eligible chain of the lineage.
      charges.removeAll(keepingCapacity: true)
      for (n, i) in eligible.enumerated() {
        let chain = s.chains[i]
        let range = s.purchases(i)
        var product = chain.currentProduct
        if product == UInt32.max, let first = range.first {
          product = s.products.nameID(ofVariant: s.record(at: first).variant)
        }
        if product != UInt32.max {
          let slot = LedgerStorage.slot(chain.store) * nameCount + Int(product)
          if !offers[a][slot], arms.indices.contains(where: { $0 != a && offers[$0][slot] }) {
            tallies[a].chainsOfOtherArmsProducts += 1
          }
        }
        guard !chain.pending else { continue }
        var firstPaidAt = PackedRecord.none
        for q in range {
          let r = s.record(at: q)
          guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
          firstPaidAt = firstPaidAt == PackedRecord.none ? r.at : min(firstPaidAt, r.at)
        }
        guard firstPaidAt != PackedRecord.none else { continue }
        for q in range {
          let r = s.record(at: q)
          guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
          charges.append(
            CreditedCharge(
              q, chain: i, position: n, ledger: s, chainFirstPaidAt: firstPaidAt,
              subscription: facts.subscription[Int(r.variant)], settings: settings, asOf: t.ms,
              day: dayOf(Instant(ms: r.at))))
        }
      }
      charges.sort { x, y in
        if x.at != y.at { return x.at < y.at }
        if x.position != y.position { return x.position < y.position }
        return x.purchaseIndex < y.purchaseIndex
      }

      let headChain = s.chains[head]
      let headPurchases = s.purchases(head)
      let headFirst = headPurchases.first.map { s.record(at: $0) }
      let trial = Readout.startedWithTrial(head, s)
      let headStatus = headChain.status >= 0 ? s.statuses[Int(headChain.status)] : nil
      let lineageCurrency: Currency? =
        charges.first?.currency ?? headFirst.flatMap { $0.currencyValue } ?? headStatus?.currencyValue
      let number = Int(entry.number)
      var person = people[number]
      if trial {
        person.trial = true
        if !charges.isEmpty { person.trialConverted = true }
        if person.trialCurrency == 0, let c = lineageCurrency {
          person.trialCurrency = UInt16(c.tableIndex + 1)
        }
      }

      // Maturity: a subscription purchase (paid, or at least a trial) whose first billing period has elapsed.
      let typedVariant = charges.first.map { s.records[Int($0.record)].variant } ?? headFirst?.variant
      let subscription = typedVariant.map { facts.subscription[Int($0)] } ?? true
      if subscription && (!charges.isEmpty || trial) {
        let mature: Bool
        if let first = charges.first {
          let variant = s.records[Int(first.record)].variant
          mature = facts.period[Int(variant)].advance(Instant(ms: first.at)) <= t
        } else {
          var latest = PackedRecord.none
          for i in eligible where s.chains[i].paidThrough != PackedRecord.none {
            latest =
              latest == PackedRecord.none ? s.chains[i].paidThrough : max(latest, s.chains[i].paidThrough)
          }
          mature = (latest == PackedRecord.none ? original : latest) <= t.ms
        }
        tallies[a].reporting.subscriptionLineages += 1
        if mature { tallies[a].reporting.matureLineages += 1 }
        if let c = lineageCurrency {
          tallies[a].byCurrency[c, default: ArmTally.Totals()].subscriptionLineages += 1
          if mature { tallies[a].byCurrency[c, default: ArmTally.Totals()].matureLineages += 1 }
        }
      }

      for (k, charge) in charges.enumerated() {
        let chain = s.chains[Int(charge.chain)]
        var totals = tallies[a].byCurrency[charge.currency] ?? ArmTally.Totals()
        totals.grossMinor += charge.grossMinor
        totals.proceedsMinor += charge.netProceedsMinor
        if charge.refunded {
          totals.refunds += 1
          totals.refundsMinor += charge.refundedMinor
          tallies[a].reporting.refunds += 1
        }
        if k > 0 {
          totals.renewals += 1
          tallies[a].reporting.renewals += 1
        }
        tallies[a].byCurrency[charge.currency] = totals
        let transaction = s.records[Int(charge.record)].transactionId
        if let gross = charge.reportingGross, let refunded = charge.reportingRefunded,
          let net = charge.reportingNet
        {
          tallies[a].reporting.grossMinor += gross
          tallies[a].reporting.refundsMinor += refunded
          tallies[a].reporting.proceedsMinor += net
          person.reportingNet += net
          tallies[a].proceedsByDayIndex[Int(charge.day.daysSinceEpoch - startDay), default: 0] += net
        } else {
          gaps.append(
            FXGap(
              currency: charge.currency, day: charge.day, store: chain.store,
              chainKey: chain.key.string(pool: s.pool), transactionId: transaction.string(pool: s.pool)))
        }
        let code = UInt16(charge.currency.tableIndex + 1)
        if person.netCurrency == 0 || person.netCurrency == code {
          person.netCurrency = code
          person.net += charge.netProceedsMinor
        } else {
          otherNet[entry.number, default: [:]][charge.currency, default: 0] += charge.netProceedsMinor
        }
        if person.firstPaidAt == PackedRecord.none || charge.at < person.firstPaidAt {
          person.firstPaidAt = charge.at
          person.firstPaidCurrency = code
        }
        while tallies[a].renewalsByNumber.count <= k { tallies[a].renewalsByNumber.append(0) }
        tallies[a].renewalsByNumber[k] += 1
        lineageStorage.items.append(
          LineageRows.Item(
            chain: chain.key, transaction: transaction, user: UInt32(entry.number), charged: charge.at,
            gross: charge.grossMinor, proceeds: charge.netProceedsMinor,
            reporting: charge.reportingNet ?? Int64.min,
            renewal: UInt32(k), currency: UInt16(charge.currency.tableIndex),
            arm: UInt8(truncatingIfNeeded: a),
            store: UInt8(LedgerStorage.slot(chain.store))))
      }
      if !person.credited {
        person.credited = true
        tallies[a].users.append(entry.number)
      }
      people[number] = person
    }

    MemDebug.note("lineage loop done")
    let counts = assigned.counts(arms: arms.count)
    let srm = ChiSquare.goodnessOfFit(observed: counts, weights: arms.map(\.weight))
    var columnSet = Set<Currency>()
    for tally in tallies { columnSet.formUnion(tally.currencies(people)) }
    let columns = columnSet.sorted()
    func net(_ number: Int32, _ c: Currency) -> Int64 {
      let p = people[Int(number)]
      if p.netCurrency != 0 && Int(p.netCurrency) - 1 == c.tableIndex { return p.net }
      return otherNet[number]?[c] ?? 0
    }
    // Per arm: the payers' values (reporting, then each currency), users in id order, as 8-lane vectors.
    let width = columns.count + 1
    let lanes = (width + 7) / 8
    var samples: [SampleSummary] = []
    let meansByArm: [[[Double]]] = arms.indices.map { a in
      var rows: [SIMD8<Int64>] = []
      var reportingValues: [Int64] = []
      var row = [Int64](repeating: 0, count: lanes * 8)
      for number in tallies[a].users.sorted(by: { assigned.users[Int($0)] < assigned.users[Int($1)] }) {
        row[0] = people[Int(number)].reportingNet
        for (c, currency) in columns.enumerated() { row[c + 1] = net(number, currency) }
        guard row.contains(where: { $0 != 0 }) else { continue }
        for l in 0..<lanes { rows.append(SIMD8<Int64>(row[(l * 8)..<(l * 8 + 8)])) }
        reportingValues.append(row[0])
      }
      samples.append(SampleSummary(users: counts[a], nonZero: reportingValues))
      var generator = SeededGenerator(
        seed: experiment.bootstrap.seed, stream: "\(experiment.id)\u{1F}\(arms[a].id)")
      return Bootstrap.means(
        users: counts[a], rows: rows, columns: width, iterations: experiment.bootstrap.iterations,
        generator: &generator)
    }
    MemDebug.note("bootstrap done")
    var armReadouts: [ArmReadout] = []
    var controlMeans: [Double] = []
    var controlSample = SampleSummary(count: 0, mean: 0, variance: 0)
    for (a, arm) in arms.enumerated() {
      let tally = tallies[a]
      let n = counts[a]
      let means = meansByArm[a]
      let sample = samples[a]
      let credited = tally.users.map { people[Int($0)] }

      var reporting = row(
        .reporting, settings.reportingCurrency, tally.reporting, users: credited, assigned: n,
        rounding: settings.rounding)
      reporting.revenuePerAssignedInterval = Bootstrap.percentileInterval(means[0])
      let currencyRows = tally.currencies(people).map { c -> ArmRow in
        var r = row(
          .currency, c, tally.byCurrency[c] ?? ArmTally.Totals(), users: credited.filter { $0.currency == c },
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

    sortLineage(lineageStorage, users: assigned.users)
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

  /// Puts the lineage rows in report order, in place: by arm, user, charge instant, store, chain key,
  /// transaction id, and credit order where all of those tie.
  static func sortLineage(_ lineage: LineageRows.Storage, users: [String]) {
    let items = lineage.items.buffer
    let n = items.count
    guard n > 1 else { return }
    // Users' ranks in id order; rows bucketed by (arm, rank) keeping credit order.
    var byName = Array(0..<UInt32(users.count))
    byName.sort { users[Int($0)] < users[Int($1)] }
    var rank = [UInt32](repeating: 0, count: users.count)
    for (r, u) in byName.enumerated() { rank[Int(u)] = UInt32(r) }
    byName = []
    let armCount = Int(items.reduce(0) { max($0, $1.arm) }) + 1
    let buckets = armCount * users.count
    var starts = [UInt32](repeating: 0, count: buckets + 1)
    for item in items { starts[Int(item.arm) * users.count + Int(rank[Int(item.user)]) + 1] += 1 }
    for b in 0..<buckets { starts[b + 1] += starts[b] }
    var order = [UInt32](repeating: 0, count: n)
    do {
      var fill = starts
      for i in 0..<n {
        let b = Int(items[i].arm) * users.count + Int(rank[Int(items[i].user)])
        order[Int(fill[b])] = UInt32(i)
        fill[b] += 1
      }
    }
    // Within one user, by instant, store, chain key, transaction id, then credit order.
    let pool = lineage.pool
    func less(_ a: UInt32, _ b: UInt32) -> Bool {
      let x = items[Int(a)]
      let y = items[Int(b)]
      if x.charged != y.charged { return x.charged < y.charged }
      if x.store != y.store { return LineageRows.store(x.store) < LineageRows.store(y.store) }
      let c = PackedID.compare(x.chain, y.chain, pool: pool)
      if c != 0 { return c < 0 }
      let t = PackedID.compare(x.transaction, y.transaction, pool: pool)
      if t != 0 { return t < 0 }
      return a < b
    }
    for b in 0..<buckets where starts[b + 1] - starts[b] > 1 {
      let from = Int(starts[b])
      let to = Int(starts[b + 1])
      var slice = Array(order[from..<to])
      slice.sort(by: less)
      for (k, v) in slice.enumerated() { order[from + k] = v }
    }
    starts = []
    // Apply the permutation in place: position p takes row order[p].
    var destination = [UInt32](repeating: 0, count: n)
    for (p, i) in order.enumerated() { destination[Int(i)] = UInt32(p) }
    order = []
    for i in 0..<n {
      while destination[i] != UInt32(i) {
        let j = Int(destination[i])
        items.swapAt(i, j)
        destination.swapAt(i, j)
      }
    }
  }

  /// One arm row from its totals and its credited users.
  static func row(
    _ scope: ArmRow.Scope, _ currency: Currency, _ totals: ArmTally.Totals, users: [ArmTally.Person],
    assigned: Int,
    rounding: RoundingRule
  ) -> ArmRow {
    var r = ArmRow(scope: scope, currency: currency)
    r.assigned = assigned
    r.trials = users.filter(\.trial).count
    r.trialConversions = users.filter(\.trialConverted).count
    r.paidConversions = users.filter { $0.firstPaidAt != PackedRecord.none }.count
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
  static func startedWithTrial(_ c: Int, _ s: LedgerStorage) -> Bool {
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
