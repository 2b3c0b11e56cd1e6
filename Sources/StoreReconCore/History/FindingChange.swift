/// One row of `changes.csv`: a finding that is new, still open, or resolved since the previous run.
package struct FindingChange: Sendable, Equatable {
  /// How the finding compares with the previous run.
  package enum State: String, Sendable, CaseIterable, Comparable {
    /// Not in the previous run's findings.
    case new
    /// In the previous run's findings and in this run's.
    case open
    /// In the previous run's findings, not in this run's.
    case resolved

    private var rank: Int {
      switch self {
      case .new: return 0
      case .open: return 1
      case .resolved: return 2
      }
    }

    package static func < (lhs: State, rhs: State) -> Bool { lhs.rank < rhs.rank }
  }

  package var state: State
  /// The finding as this run found it (new, open) or as the previous run recorded it (resolved).
  package var finding: RecordedFinding
  /// The earliest report date whose run saw the finding.
  package var since: CivilDate

  /// Creates a change row.
  package init(state: State, finding: RecordedFinding, since: CivilDate) {
    self.state = state
    self.finding = finding
    self.since = since
  }

  /// `changes.csv` order: state (new, open, resolved), kind, reason, store, chain key, user, key.
  package static func reportOrder(_ a: FindingChange, _ b: FindingChange) -> Bool {
    let x = a.finding
    let y = b.finding
    if (a.state, x.kind, x.reason, x.store, x.chainKey, x.userId) != (
      b.state, y.kind, y.reason, y.store, y.chainKey, y.userId
    ) {
      return (a.state, x.kind, x.reason, x.store, x.chainKey, x.userId)
        < (b.state, y.kind, y.reason, y.store, y.chainKey, y.userId)
    }
    return x.key < y.key
  }
}
