package import StoreReconCore
package import StoreReconReports

/// The outcome of a run: what was read, what was found, where the reports are.
package struct RunResult: Sendable {
  /// The report date and as-of instant.
  package var date: CivilDate
  package var asOf: Instant
  /// The output folder.
  package var outDirectory: String
  /// Every input read.
  package var inputs: [InputReport]
  /// Every finding, in report order.
  package var findings: [Finding]
  /// Revenue and counts tables.
  package var revenue: [RevenueRow]
  package var counts: [CountsRow]
  /// Files written, relative to the output folder.
  package var files: [String]
  /// Price-experiment readouts, in config order (empty without experiments).
  package var experiments: [Readout] = []
  /// Input files matched again (by a second pattern or through a link) and read once, with the name
  /// they were read under.
  package var repeatedFiles: [String] = []
  /// The tie-out of the transaction feed against the stores' own reports (empty without reports).
  package var tieOut = TieOut()
  /// payouts.csv's lines (``Payouts/lines(_:fx:)``).
  package var payouts: [PayoutLine] = []

  /// Active store-sourced entitlements per store whose exports the config does not name (not checked).
  package var uncheckedEntitlements: [Store: Int] = [:]

  /// The rules left out because an input they need failed (docs/reports.md#the-status).
  package var skippedRules = SkippedRules()

  /// New / still open / resolved findings since the previous run; `nil` without run history
  /// (`--no-history`).
  package var history: HistoryDelta?
  /// With run history: the report date is earlier than the latest recorded run's (a backfill on today's
  /// app rows, recorded but left out of the trend; docs/history.md#backfill).
  package var backfill = false

  /// The run's cases with their states (docs/cases.md).
  package var cases: CaseBook?

  /// What summary.txt and summary.html say: status (alerts, completeness) and the sections.
  package var summary: ReportSummary?

  /// A run's result: what it read and found, and the files it wrote.
  package init(
    date: CivilDate, asOf: Instant, outDirectory: String, inputs: [InputReport], findings: [Finding],
    revenue: [RevenueRow], counts: [CountsRow], files: [String]
  ) {
    (self.date, self.asOf, self.outDirectory, self.inputs) = (date, asOf, outDirectory, inputs)
    (self.findings, self.revenue, self.counts, self.files) = (findings, revenue, counts, files)
  }

  /// Findings per reason, in the order of docs/rules.md.
  package var findingsPerReason: [(Finding.Reason, Int)] {
    var counts: [Finding.Reason: Int] = [:]
    for f in findings { counts[f.reason, default: 0] += 1 }
    return Finding.Reason.allCases.compactMap { reason in counts[reason].map { (reason, $0) } }
  }

  /// Inputs that could not be read as a whole.
  package var failedInputs: [InputReport] { inputs.filter { $0.error != nil } }
}
