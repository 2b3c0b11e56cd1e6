package import StoreReconCore

extension SummaryHistory {
  /// History from the run history's changes: the `new` rows' keys, the `resolved` rows per reason, and
  /// the recent runs' totals.
  package init(changes: [FindingChange], previousRunDate: CivilDate?, dayTotals: [HistoryDayTotal] = []) {
    var resolved: [Finding.Reason: Int] = [:]
    var new = Set<String>()
    for change in changes {
      switch change.state {
      case .new: new.insert(change.finding.key)
      case .resolved:
        if let reason = Finding.Reason(rawValue: change.finding.reason) { resolved[reason, default: 0] += 1 }
      case .open: break
      }
    }
    self.init(
      previousRunDate: previousRunDate, newFindingKeys: new, resolvedPerReason: resolved, dayTotals: dayTotals
    )
  }
}
