package import StoreReconCore

/// Everything `reconciliation.xlsx` shows (``ReportFiles/reconciliationWorkbook``): what a run hands to
/// the workbook renderer, so that it builds the content without linking libxlsxwriter.
package struct WorkbookContent: Sendable {
  /// Report date and as-of instant T.
  package var date: CivilDate
  package var asOf: Instant
  /// IANA time zone of the report day (revenue days are in it; instants are shown in UTC).
  package var timeZone: String
  /// Every input with its counts (and error, if it could not be read).
  package var inputs: [InputReport]
  /// Findings in report order.
  package var findings: [Finding]
  package var revenue: [RevenueRow]
  package var counts: [CountsRow]
  package var grants: [GrantRow]
  /// Every input's rejected rows, input by input.
  package var rejects: [Reject]
  /// New / still-open / resolved counts; `nil` when there is no run history.
  package var history: WorkbookHistory?
  /// The tie-out against the stores' own reports; empty when no store report was read.
  package var tieOut: TieOut
  /// Payout totals of the settlement reports (``PayoutTotal/payoutTotals(_:)``).
  package var payouts: [PayoutTotal]
  /// The run's status (``RunStatus``): the Summary sheet's first row; `nil` leaves the row out.
  package var status: RunStatus?
  /// Gross revenue per day and store over the last days (``RevenueTrend``): the **Revenue trend**
  /// sheet and its chart on the Summary sheet; `nil` leaves both out.
  package var revenueTrend: RevenueTrend?
  /// Findings and money at stake per recorded run (``FindingsTrend``, run history): the **Findings
  /// trend** sheet, a chart of it on the Summary sheet below the revenue chart; `nil` leaves both out.
  package var findingsTrend: FindingsTrend?
  /// The run's money in the reporting currency (``ReportingTotals``, with an FX table): a section of
  /// the Summary sheet after the revenue totals; `nil` leaves it out.
  package var reportingTotals: ReportingTotals?
  /// revenue_recognition.csv's rows: the **Revenue recognition** sheet; empty leaves it out.
  package var recognition: [RecognitionRow] = []
  /// What each billed month's charges recognise per month: the **Revenue waterfall** sheet (shown
  /// with ``recognition``).
  package var waterfall: [RecognitionSums.Flow: Int64] = [:]
  /// payouts.csv's lines (``Payouts/lines(_:fx:)``): the **Payouts** sheet; empty leaves it out.
  package var payoutLines: [PayoutLine] = []
  /// What the `docs` links start with (the config's `docsBaseURL`): a web address makes them
  /// hyperlinks, anything else (the default `docs/`) text.
  package var docsBase = NextStep.defaultDocsBase

  /// Creates the content.
  package init(
    date: CivilDate, asOf: Instant, timeZone: String, inputs: [InputReport], findings: [Finding],
    revenue: [RevenueRow], counts: [CountsRow], grants: [GrantRow], rejects: [Reject],
    history: WorkbookHistory? = nil, tieOut: TieOut = TieOut(), payouts: [PayoutTotal] = [],
    status: RunStatus? = nil
  ) {
    self.date = date
    self.asOf = asOf
    self.timeZone = timeZone
    self.inputs = inputs
    self.findings = findings
    self.revenue = revenue
    self.counts = counts
    self.grants = grants
    self.rejects = rejects
    self.history = history
    self.tieOut = tieOut
    self.payouts = payouts
    self.status = status
  }

  /// Data rows over all tables (decides constant-memory mode).
  package var tableRows: Int {
    findings.count + revenue.count + counts.count + grants.count + rejects.count + tieOut.cells.count
      + tieOut.orders.count + recognition.count
  }
}
