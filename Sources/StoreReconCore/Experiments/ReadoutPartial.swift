/// One experiment's crediting pass over the lineages of one partition of a partitioned run
/// (docs/partitions.md#price-experiments): the users it credited, the arms' tallies, the FX gaps and
/// the credited charges. ``Readout/merged(_:experiment:assignments:settings:asOf:dayOf:)`` adds N of
/// them up and reads the experiment out as one run does.
package struct ReadoutPartial: Sendable, Equatable {
  package var experimentId: String
  /// The users this partition credited (every other user's entry is empty), by id.
  var people: [String: ArmTally.Person] = [:]
  var tallies: [ArmTally] = []
  var gaps: [FXGap] = []
  /// Net proceeds in currencies beside a user's first one, by user id.
  var otherNet: [String: [Currency: Int64]] = [:]
  /// In report order (by user, then each user's rows in credit order).
  package var lineage: [CreditedCharge] = []

  /// An empty partial of experiment `experimentId`.
  package init(experimentId: String) { self.experimentId = experimentId }
}

extension ArmTally.Person {
  /// Whether the crediting pass left the entry as it found it.
  var isUntouched: Bool {
    firstPaidAt == PackedRecord.none && reportingNet == 0 && net == 0 && firstPaidCurrency == 0
      && trialCurrency == 0 && netCurrency == 0 && !trial && !trialConverted && !credited && !mixed
  }
}

extension Readout {
  /// Each experiment's crediting pass over this ledger (a partition's lineages), for the merge.
  package static func partials(
    experiments: [Experiment], ledger: Ledger, credentials: PackedCredentials, assignments: [Assignment],
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate
  ) -> [ReadoutPartial] {
    guard !experiments.isEmpty else { return [] }
    let users = ChainUsers(ledger: ledger, credentials: credentials)
    return experiments.map { experiment in
      let assigned = AssignedUsers(
        experiment: experiment, assignments: assignments, asOf: ledger.asOf, dayOf: dayOf)
      let pass = credited(
        experiment, assigned: assigned, users: users, ledger: ledger, settings: settings, dayOf: dayOf)
      var p = ReadoutPartial(experimentId: experiment.id)
      for n in pass.people.indices where !pass.people[n].isUntouched {
        p.people[assigned.users[n]] = pass.people[n]
      }
      p.tallies = pass.totals.tallies
      p.gaps = pass.totals.gaps
      for (n, amounts) in pass.totals.otherNet { p.otherNet[assigned.users[Int(n)]] = amounts }
      p.lineage = Array(CreditedCharges(storage: pass.lineage))
      return p
    }
  }

  /// The crediting pass of one experiment: every user's entry, the added-up tallies and the lineage rows.
  static func credited(
    _ experiment: Experiment, assigned: AssignedUsers, claimers: [Int32]? = nil, users: ChainUsers,
    ledger: Ledger,
    settings: ExperimentSettings, dayOf: (Instant) -> CivilDate, creditParts: Int? = nil
  ) -> (
    people: [ArmTally.Person], totals: CreditTotals, lineage: CreditedCharges.Storage, reportDate: CivilDate,
    days: Int
  ) {
    let s = ledger.storage
    let reportDate = dayOf(ledger.asOf.adding(ms: -1))
    let arms = experiment.arms
    let counts = assigned.counts(arms: arms.count)
    let owners = lineageOwners(
      users, ledger: s, assigned: assigned,
      claimers: claimers ?? ChainUsers.claimerNumbers(users.credentials, assigned))
    let startDay = experiment.enrollStart.daysSinceEpoch
    let days = max(0, Int(reportDate.daysSinceEpoch - startDay) + 1)
    let context = CreditContext(
      ledger: s, asOf: ledger.asOf, arms: arms, assigned: assigned, users: users, owners: owners,
      places: places(assigned, counts: counts), facts: VariantFacts(s.products, catalog: settings.catalog),
      offers: offers(arms, s.products), nameCount: s.products.names.count, settings: settings,
      startDay: startDay, days: days)
    var (people, results) = creditAll(context, parts: creditParts, dayOf: dayOf)
    var totals = CreditTotals(arms: arms.count, days: days)
    for result in results { totals.add(result) }
    let storage = CreditedCharges.Storage(
      experimentId: experiment.id, armIds: arms.map(\.id), users: assigned.users, pool: s.pool,
      segments: results.map(\.items))
    results = []
    let out = (people, totals, storage, reportDate, days)
    people = []
    return out
  }
}
