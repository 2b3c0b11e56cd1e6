/// What one run records in the run history: its report date, as-of instant, options and inputs, its
/// findings (one per finding key) and how they compare with the previous run.
package struct RunRecord: Sendable {
  package var date: CivilDate
  package var asOf: Instant
  /// JSON object text of the options the run used.
  package var optionsJSON: String
  /// JSON array text of the inputs: role, path, sha256, counts.
  package var inputsJSON: String
  package var findings: [RecordedFinding]
  package var findingCount: Int
  package var delta: HistoryDelta
  /// `complete`, or `inputs_failed` when an input file could not be read as a whole.
  package var status: String
  /// When the run started (ISO 8601), from the machine clock: metadata only.
  package var startedAt: String
  /// A run for a date earlier than the latest recorded one (its app rows are today's, not that day's):
  /// recorded, but left out of the trend and never the previous run of a later date.
  package var backfill: Bool

  /// Creates the value from its fields.
  package init(
    date: CivilDate, asOf: Instant, optionsJSON: String, inputsJSON: String, findings: [RecordedFinding],
    findingCount: Int, delta: HistoryDelta, status: String, startedAt: String, backfill: Bool = false
  ) {
    self.date = date
    self.asOf = asOf
    self.optionsJSON = optionsJSON
    self.inputsJSON = inputsJSON
    self.findings = findings
    self.findingCount = findingCount
    self.delta = delta
    self.status = status
    self.startedAt = startedAt
    self.backfill = backfill
  }
}
