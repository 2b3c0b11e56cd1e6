package import StoreReconCore

/// What run history says about this run's findings: plain values, filled by whichever history store
/// the run has (PostgreSQL run history); `nil` in ``SummaryFacts`` prints "not configured".
package struct SummaryHistory: Sendable, Equatable {
  /// Report date of the previous run the history compares with; `nil` for the first recorded run.
  package var previousRunDate: CivilDate?
  /// Keys of findings this run saw for the first time.
  package var newFindingKeys: Set<String>
  /// Findings the previous run reported that this run no longer reports, per reason.
  package var resolvedPerReason: [Finding.Reason: Int]
  /// The recorded runs of the last days (this one included) per kind and currency: the findings trend.
  package var dayTotals: [HistoryDayTotal]
  /// This run is a backfill: its date is earlier than the latest recorded run's, so it ran on today's
  /// app rows and is left out of the trend (docs/history.md#backfill).
  package var backfill = false

  /// Creates history counts from the new finding keys, the resolved counts per reason and the recent
  /// runs' totals.
  package init(
    previousRunDate: CivilDate?, newFindingKeys: Set<String>, resolvedPerReason: [Finding.Reason: Int],
    dayTotals: [HistoryDayTotal] = []
  ) {
    self.previousRunDate = previousRunDate
    self.newFindingKeys = newFindingKeys
    self.resolvedPerReason = resolvedPerReason
    self.dayTotals = dayTotals
  }

  /// History from the findings' own `since` dates: a finding first seen on `date` (or with no `since`) is new.
  package static func fromSince(
    findings: [Finding], date: CivilDate, previousRunDate: CivilDate?,
    resolvedPerReason: [Finding.Reason: Int]
  ) -> SummaryHistory {
    let day = date.description
    let new = findings.filter { $0.since == nil || $0.since == day }.map(\.key)
    return SummaryHistory(
      previousRunDate: previousRunDate, newFindingKeys: Set(new), resolvedPerReason: resolvedPerReason)
  }
}
