/// The outcome of a run: what was read, what was found, where the reports are.
public struct RunResult: Sendable {
  /// The report date and as-of instant.
  public var date: CivilDate
  public var asOf: Instant
  /// The output folder.
  public var outDirectory: String
  /// Every input read.
  public var inputs: [InputReport]
  /// Every finding, in report order.
  public var findings: [Finding]
  /// Revenue and counts tables.
  public var revenue: [RevenueRow]
  public var counts: [CountsRow]
  /// Files written, relative to the output folder.
  public var files: [String]
  /// Price-experiment readouts, in config order (empty without experiments).
  public var experiments: [Readout] = []

  /// Active store-sourced entitlements per store whose exports the config does not name (not checked).
  public var uncheckedEntitlements: [Store: Int] = [:]

  /// New / still open / resolved findings since the previous run; `nil` without run history
  /// (no database, or `--no-history`).
  public var history: HistoryDelta?

  /// What summary.txt and summary.html say: status (alerts, completeness) and the sections.
  public var summary: ReportSummary?

  /// Findings per reason, in the order of DESIGN.md's table.
  public var findingsPerReason: [(Finding.Reason, Int)] {
    Finding.Reason.allCases.compactMap { reason in
      let n = findings.filter { $0.reason == reason }.count
      return n > 0 ? (reason, n) : nil
    }
  }

  /// Inputs that could not be read as a whole.
  public var failedInputs: [InputReport] { inputs.filter { $0.error != nil } }
}
