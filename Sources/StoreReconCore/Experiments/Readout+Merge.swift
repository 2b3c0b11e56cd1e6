import StoreReconPlatform

/// Why partitions' readout partials do not add up.
package struct ReadoutMergeError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String

  /// An error saying `message`.
  package init(_ message: String) { self.message = message }

  package var description: String { message }
}

extension Readout {
  /// Reads experiment `experiment` out from its partitions' crediting passes, as one run over all
  /// their lineages does: each user's entry from the one partition that credited them, the tallies
  /// added, the lineage rows in user order, then the same statistics and verdicts.
  package static func merged(
    _ parts: [ReadoutPartial], experiment: Experiment, assignments: [Assignment],
    settings: ExperimentSettings,
    asOf: Instant, dayOf: (Instant) -> CivilDate
  ) throws(ReadoutMergeError) -> Readout {
    let assigned = AssignedUsers(experiment: experiment, assignments: assignments, asOf: asOf, dayOf: dayOf)
    let arms = experiment.arms
    let reportDate = dayOf(asOf.adding(ms: -1))
    let days = max(0, Int(reportDate.daysSinceEpoch - experiment.enrollStart.daysSinceEpoch) + 1)
    var people = Array(repeating: ArmTally.Person(), count: assigned.users.count)
    var totals = CreditTotals(arms: arms.count, days: days)
    func number(_ id: String) throws(ReadoutMergeError) -> Int {
      guard let n = assigned.number(of: id) else {
        throw ReadoutMergeError("experiment \(experiment.id): user '\(id)' of a partial is not assigned")
      }
      return Int(n)
    }
    for part in parts {
      guard part.tallies.count == arms.count else {
        throw ReadoutMergeError(
          "experiment \(experiment.id): a partial has \(part.tallies.count) arms, the config \(arms.count)")
      }
      for (id, person) in part.people {
        let n = try number(id)
        guard people[n].isUntouched else {
          throw ReadoutMergeError("experiment \(experiment.id): user '\(id)' was credited in two partitions")
        }
        people[n] = person
      }
      for a in arms.indices {
        guard !totals.tallies[a].overflows(adding: part.tallies[a]) else {
          throw ReadoutMergeError(
            "experiment \(experiment.id), arm \(arms[a].id): a money sum overflows 64 bits")
        }
        totals.tallies[a].add(part.tallies[a])
      }
      totals.gaps += part.gaps
      for (id, amounts) in part.otherNet { totals.otherNet[Int32(try number(id))] = amounts }
    }
    let places = self.places(assigned, counts: assigned.counts(arms: arms.count))
    let storage = try lineageStorage(parts, experiment: experiment, assigned: assigned, places: places)
    return finish(
      experiment, assigned: assigned, people: &people, totals: totals, lineage: storage,
      reportDate: reportDate,
      days: days, settings: settings, dayOf: dayOf)
  }

  /// The partitions' lineage rows, packed, in report order: by the user's place (arm, then user
  /// number), each user's rows as the partition that credited them wrote them.
  static func lineageStorage(
    _ parts: [ReadoutPartial], experiment: Experiment, assigned: AssignedUsers, places: [Int32]
  ) throws(ReadoutMergeError) -> CreditedCharges.Storage {
    let pool = TextPool()
    let armIds = experiment.arms.map(\.id)
    var rows: [(place: Int32, item: CreditedCharges.Packed)] = []
    for part in parts {
      for row in part.lineage {
        guard let n = assigned.number(of: row.userId), let arm = armIds.firstIndex(of: row.armId) else {
          throw ReadoutMergeError(
            "experiment \(experiment.id): lineage row of user '\(row.userId)', arm '\(row.armId)' is not assigned"
          )
        }
        let item = CreditedCharges.Packed(
          chain: PackedID.intern(row.chainKey, in: pool),
          transaction: PackedID.intern(row.transactionId, in: pool),
          user: UInt32(n), charged: row.chargedAt.ms, gross: row.grossMinor, proceeds: row.proceedsMinor,
          reporting: row.reportingMinor ?? Int64.min, renewal: UInt32(row.renewalNumber),
          currency: UInt16(row.currency.tableIndex), arm: UInt8(arm),
          store: UInt8(LedgerStorage.slot(row.store)))
        rows.append((places[Int(n)], item))
      }
    }
    // Stable: a user's rows keep their order.
    let order = rows.indices.sorted { (rows[$0].place, $0) < (rows[$1].place, $1) }
    let segment = GrowableBuffer<CreditedCharges.Packed>()
    for i in order { segment.append(rows[i].item) }
    return CreditedCharges.Storage(
      experimentId: experiment.id, armIds: armIds, users: assigned.users, pool: pool, segments: [segment])
  }
}

extension ArmTally {
  /// Whether adding `other` would overflow one of the 64-bit money sums (the merge refuses, rather
  /// than wrap or trap).
  func overflows(adding other: ArmTally) -> Bool {
    func over(_ a: Totals, _ b: Totals) -> Bool {
      a.grossMinor.addingReportingOverflow(b.grossMinor).overflow
        || a.proceedsMinor.addingReportingOverflow(b.proceedsMinor).overflow
        || a.refundsMinor.addingReportingOverflow(b.refundsMinor).overflow
    }
    if over(reporting, other.reporting) { return true }
    for i in byCurrency.indices where other.hasRow[i] && over(byCurrency[i], other.byCurrency[i]) {
      return true
    }
    for (d, v) in other.proceedsByDayIndex.enumerated() where d < proceedsByDayIndex.count {
      if proceedsByDayIndex[d].addingReportingOverflow(v).overflow { return true }
    }
    return false
  }
}
