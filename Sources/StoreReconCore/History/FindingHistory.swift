/// Compares this run's findings with the run history: `since` per finding, and what is new, still
/// open or resolved since the previous run. Pure: the history is fetched and stored elsewhere.
package enum FindingHistory {
  /// The previous run: the latest earlier report date with a recorded run, and its findings.
  package struct PreviousRun: Sendable, Equatable {
    package var date: CivilDate
    package var findings: [RecordedFinding]

    /// Creates a previous run.
    package init(date: CivilDate, findings: [RecordedFinding]) {
      self.date = date
      self.findings = findings
    }
  }

  /// This run's findings with `since` set, the change rows, and their counts.
  package struct Outcome: Sendable {
    /// This run's findings in report order, each with `since`.
    package var findings: [Finding]
    /// One row per distinct finding key of this run and of the previous run, in report order.
    package var changes: [FindingChange]
    /// The counts of the change rows per state.
    package var delta: HistoryDelta
    /// This run's findings as the history records them: one per finding key (the first in report order).
    package var recorded: [RecordedFinding]
  }

  /// Compares `current` (report order) for report date `date` with the history.
  ///
  /// - Parameters:
  ///   - previous: the latest recorded run before `date`, if any.
  ///   - firstSeen: for finding keys of this run and of `previous`, the earliest report date before
  ///     `date` whose run saw the key (keys never seen before may be absent).
  /// - Returns: `since` = the earliest date that saw the key, or `date` for a key seen first now; a
  ///   key in `previous` is `open` when this run has it and `resolved` when not; any other key of this
  ///   run is `new` (also one that an older run saw and the previous one did not: it came back).
  package static func compare(
    current: [Finding], date: CivilDate, previous: PreviousRun?, firstSeen: [String: CivilDate]
  ) -> Outcome {
    func since(_ key: String, default fallback: CivilDate) -> CivilDate {
      guard let seen = firstSeen[key], seen < fallback else { return fallback }
      return seen
    }
    let previousKeys = Set(previous?.findings.map(\.key) ?? [])
    var findings = current
    var recorded: [RecordedFinding] = []
    var changes: [FindingChange] = []
    var currentKeys = Set<String>()
    for i in findings.indices {
      let key = findings[i].key
      let first = since(key, default: date)
      findings[i].since = first.description
      guard currentKeys.insert(key).inserted else { continue }
      let row = RecordedFinding(findings[i])
      recorded.append(row)
      changes.append(
        FindingChange(state: previousKeys.contains(key) ? .open : .new, finding: row, since: first))
    }
    var resolvedKeys = Set<String>()
    if let previous {
      for row in previous.findings
      where !currentKeys.contains(row.key) && resolvedKeys.insert(row.key).inserted {
        changes.append(
          FindingChange(state: .resolved, finding: row, since: since(row.key, default: previous.date)))
      }
    }
    changes.sort(by: FindingChange.reportOrder)
    let delta = HistoryDelta(
      previousDate: previous?.date, newCount: changes.filter { $0.state == .new }.count,
      openCount: changes.filter { $0.state == .open }.count, resolvedCount: resolvedKeys.count)
    return Outcome(findings: findings, changes: changes, delta: delta, recorded: recorded)
  }
}
