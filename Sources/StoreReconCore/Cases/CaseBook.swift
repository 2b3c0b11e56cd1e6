/// The run's cases with their states: this run's candidates compared with the run history and the
/// decisions in `decisions.csv` (docs/cases.md). Pure: the history and the decisions are read elsewhere.
package struct CaseBook: Sendable, Equatable {
  /// The report date.
  package var date: CivilDate
  /// Every case of this run and every case the previous run had that this one has not (`resolved`),
  /// in report order.
  package var cases: [Case]
  /// The report date of the run compared with; `nil` on the first run or without history.
  package var previousDate: CivilDate?
  /// Whether run history was kept (without it every case is new).
  package var historyKept: Bool

  /// Creates a case book from its fields.
  package init(date: CivilDate, cases: [Case], previousDate: CivilDate?, historyKept: Bool) {
    self.date = date
    self.cases = cases
    self.previousDate = previousDate
    self.historyKept = historyKept
  }

  /// The number of cases in `state`.
  package func count(_ state: Case.State) -> Int { cases.filter { $0.state == state }.count }

  /// The cases of this run (all but the resolved ones).
  package var current: [Case] { cases.filter { $0.state != .resolved } }

  /// Gives each candidate its state.
  ///
  /// - Parameters:
  ///   - previous: the previous run's date and its recorded rows (findings and the other cases).
  ///   - firstSeen: for keys of this run and of the previous run, the earliest earlier report date whose
  ///     run saw the key.
  ///   - decisions: every decision of `decisions.csv`, in file order (a later line for a key replaces an
  ///     earlier one).
  /// - Returns: a key of this run is `settled` when its decision holds (not expired: `until` ≥ the report
  ///   date; its amount within `max_amount_minor`); else `reopened` when its amount grew past the cap or
  ///   an earlier run saw it and the previous one did not; else `open` when the previous run had it;
  ///   else `new`. A key of the previous run that this run lacks is `resolved`.
  package static func build(
    candidates: [CaseCandidate], date: CivilDate, previous: (date: CivilDate, rows: [RecordedFinding])?,
    firstSeen: [String: CivilDate], decisions: [CaseDecision], historyKept: Bool
  ) -> CaseBook {
    var decided: [String: CaseDecision] = [:]
    for d in decisions { decided[d.key] = d }
    let previousKeys = Set(previous?.rows.map(\.key) ?? [])
    var cases: [Case] = []
    var currentKeys = Set<String>()
    for candidate in candidates where currentKeys.insert(candidate.key).inserted {
      let seen = firstSeen[candidate.key].flatMap { $0 < date ? $0 : nil }
      var state: Case.State =
        previousKeys.contains(candidate.key) ? .open : (seen != nil ? .reopened : .new)
      var note = ""
      let decision = decided[candidate.key]
      if let d = decision {
        let amount = candidate.amountMinor?.magnitude ?? 0
        if let until = d.until, until < date {
          note = "decision by \(d.by) expired after \(until)"
        } else if let cap = d.maxAmountMinor, amount > cap.magnitude {
          state = .reopened
          note = "amount \(amount) grew past the \(cap) minor units settled by \(d.by)"
        } else {
          state = .settled
        }
      }
      let first = seen ?? date
      cases.append(
        Case(
          candidate, state: state, firstSeen: first, ageDays: Int(date.daysSinceEpoch - first.daysSinceEpoch),
          decision: decision, note: note))
    }
    if let previous {
      var resolved = Set<String>()
      for row in previous.rows where !currentKeys.contains(row.key) && resolved.insert(row.key).inserted {
        let first = firstSeen[row.key].flatMap { $0 < previous.date ? $0 : nil } ?? previous.date
        cases.append(
          Case(
            CaseCandidate(recorded: row), state: .resolved, firstSeen: first,
            ageDays: Int(date.daysSinceEpoch - first.daysSinceEpoch), decision: decided[row.key]))
      }
    }
    cases.sort(by: Case.reportOrder)
    return CaseBook(date: date, cases: cases, previousDate: previous?.date, historyKept: historyKept)
  }

  /// The decisions whose key no case of this run, of the previous run, nor of `knownKeys` (every key
  /// the run history ever recorded) has: each is an error naming it.
  package func unknownDecisions(_ decisions: [CaseDecision], knownKeys: Set<String>) -> [CaseDecision] {
    let keys = Set(cases.map(\.key)).union(knownKeys)
    return decisions.filter { !keys.contains($0.key) }
  }
}

extension CaseCandidate {
  /// The candidate of a row the history recorded (its source from its kind).
  package init(recorded row: RecordedFinding) {
    let source = Case.Source(rawValue: row.kind) ?? .finding
    self.init(
      key: row.key, source: source, kind: row.kind, reason: row.reason, store: row.store,
      subject: row.chainKey,
      userId: row.userId, productId: row.productId, currency: row.currency, amountMinor: row.amountMinor,
      chargeGroup: source == .finding ? "\(row.store)|\(row.chainKey)" : nil,
      countsAtStake: source == .finding)
  }
}

extension RecordedFinding {
  /// The row the run history keeps for a case that is not a finding (a tie-out difference, an input
  /// with rejected rows): its source as the kind, the subject as the chain key.
  package init(case candidate: CaseCandidate) {
    self.init(
      key: candidate.key, kind: candidate.kind, reason: candidate.reason, store: candidate.store,
      chainKey: candidate.subject, userId: candidate.userId, productId: candidate.productId,
      currency: candidate.currency, amountMinor: candidate.amountMinor)
  }
}
