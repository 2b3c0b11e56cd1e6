package import StoreReconCore

/// New, still-open and resolved findings against the previous run, from run history (kept in PostgreSQL
/// when a database is configured). The workbook's Summary shows it; without it the Summary says there is
/// no run history.
package struct WorkbookHistory: Sendable, Equatable {
  /// Counts for one reason.
  package struct Row: Sendable, Equatable {
    package var reason: Finding.Reason
    /// Findings this run saw that the previous run did not.
    package var new: Int
    /// Findings both runs saw.
    package var stillOpen: Int
    /// Findings the previous run saw that this run does not.
    package var resolved: Int

    /// Creates a row.
    package init(reason: Finding.Reason, new: Int, stillOpen: Int, resolved: Int) {
      self.reason = reason
      self.new = new
      self.stillOpen = stillOpen
      self.resolved = resolved
    }
  }

  /// The previous run's report date; `nil` when this is the first recorded run.
  package var previousDate: CivilDate?
  /// One row per reason (reasons left out count as zero).
  package var rows: [Row]

  /// Creates history counts.
  package init(previousDate: CivilDate?, rows: [Row]) {
    self.previousDate = previousDate
    self.rows = rows
  }

  /// Counts per reason from the run history's changes (new / still open / resolved findings).
  package init(previousDate: CivilDate?, changes: [FindingChange]) {
    var rows: [Row] = []
    for reason in Finding.Reason.allCases {
      let mine = changes.filter { $0.finding.reason == reason.rawValue }
      guard !mine.isEmpty else { continue }
      rows.append(
        Row(
          reason: reason, new: mine.filter { $0.state == .new }.count,
          stillOpen: mine.filter { $0.state == .open }.count,
          resolved: mine.filter { $0.state == .resolved }.count))
    }
    self.init(previousDate: previousDate, rows: rows)
  }
}
