package import StoreReconCore

/// The report files a run writes into its folder, in the order they are written, and their rendering
/// (reports/README.md, docs/reports.md): the run hands over its tables and asks for the files. A new
/// report file goes here.
package enum ReportFiles {
  /// The reconciliation workbook.
  package static let reconciliationWorkbook = "reconciliation.xlsx"
  /// The price-test workbook (written when the config has experiments).
  package static let priceTestsWorkbook = "price-tests.xlsx"

  /// What the files written whole are rendered from: the run's tables.
  package struct Tables {
    package var findings: [Finding]
    package var revenue: [RevenueRow]
    /// revenue_recognition.csv's rows.
    package var recognition: [RecognitionRow]
    package var counts: [CountsRow]
    package var grants: [GrantRow]
    package var tieOut: TieOut
    /// The records read again (duplicates.csv names their files by the inputs' paths).
    package var duplicates: [RecordDuplicate]
    /// The price tests' readouts; `nil` when the config has no experiments (no experiment files).
    package var readouts: [Readout]?
    /// The run history's changes; `nil` without run history (no changes.csv).
    package var changes: [FindingChange]?
    /// The cases; `nil` leaves cases.csv out.
    package var cases: CaseBook?
    /// notifications.csv's bytes; `nil` without a notification log.
    package var notifications: [UInt8]?
    /// What the `docs` links start with (the config's `docsBaseURL`).
    package var docsBase: String

    /// The tables of a run.
    package init(
      findings: [Finding], revenue: [RevenueRow], recognition: [RecognitionRow], counts: [CountsRow],
      grants: [GrantRow], tieOut: TieOut, duplicates: [RecordDuplicate], readouts: [Readout]?,
      changes: [FindingChange]?, cases: CaseBook?, notifications: [UInt8]?, docsBase: String
    ) {
      (self.findings, self.revenue, self.recognition) = (findings, revenue, recognition)
      (self.counts, self.grants, self.tieOut) = (counts, grants, tieOut)
      (self.duplicates, self.readouts, self.changes) = (duplicates, readouts, changes)
      (self.cases, self.notifications, self.docsBase) = (cases, notifications, docsBase)
    }
  }

  /// The CSV files (findings, revenue, recognition, counts, grants, tie-out, duplicates, payouts, the
  /// experiments', changes, cases), the summaries and notifications.csv, with their bytes, in the order
  /// they are written; and the summary, whose status the run decided before (`status`, from `facts`).
  package static func render(_ tables: Tables, facts: SummaryFacts, status: RunStatus) -> (
    [(String, [UInt8])], ReportSummary
  ) {
    var byKey: [String: Case] = [:]
    for c in tables.cases?.current ?? [] { byKey[c.key] = c }
    let docsBase = tables.docsBase
    var files: [(String, [UInt8])] = [
      ("findings.csv", ReportTables.findingsCSV(tables.findings, docsBase: docsBase, cases: byKey)),
      ("revenue.csv", ReportTables.revenueCSV(tables.revenue)),
      (RecognitionTables.fileName, RecognitionTables.csv(tables.recognition)),
      ("counts.csv", ReportTables.countsCSV(tables.counts)),
      ("grants.csv", ReportTables.grantsCSV(tables.grants)),
      ("tieout.csv", ReportTables.tieOutCSV(tables.tieOut.cells, docsBase: docsBase, cases: byKey)),
      (
        "tieout_orders.csv",
        ReportTables.tieOutOrdersCSV(tables.tieOut.orders, docsBase: docsBase, cases: byKey)
      ),
      ("duplicates.csv", ReportTables.duplicatesCSV(tables.duplicates, reports: facts.inputs)),
      (PayoutTables.fileName, PayoutTables.csv(facts.payoutLines)),
    ]
    let readouts = tables.readouts ?? []
    if tables.readouts != nil {
      files.append(("experiment_arms.csv", ExperimentTables.armsCSV(readouts)))
      files.append(("experiment_lineage.csv", ExperimentTables.lineageCSV(readouts)))
    }
    if let changes = tables.changes { files.append(("changes.csv", ReportTables.changesCSV(changes))) }
    if let cases = tables.cases { files.append(("cases.csv", ReportTables.casesCSV(cases))) }
    var facts = facts
    facts.experiments = readouts.isEmpty ? nil : readouts.map(ExperimentSummary.verdict)
    let summary = ReportSummary.build(facts, status: status)
    files.append(("summary.txt", Array(summary.text.utf8)))
    files.append(("summary.html", Array(summary.html.utf8)))
    if let notifications = tables.notifications { files.append(("notifications.csv", notifications)) }
    return (files, summary)
  }
}
