package import StoreReconCore

/// What a summary is built from: the run's values, plus optional sections other features fill in.
package struct SummaryFacts: Sendable {
  /// Tool version.
  package var version: String
  /// Report date, as-of instant and the config's time zone.
  package var date: CivilDate
  package var asOf: Instant
  package var timeZone: String
  /// Every input read (with coverage and row counts).
  package var inputs: [InputReport]
  /// Every finding.
  package var findings: [Finding]
  /// Revenue rows (all days; the summary shows the report day and its month to date).
  package var revenue: [RevenueRow]
  /// Thresholds from the config (`"alerts"`); empty means none configured.
  package var alerts: [AlertRule]
  /// Why the inputs do not cover the report date (``Completeness/reasons(date:calendar:inputs:missing:)``).
  package var incomplete: [String]
  /// Run history; `nil` prints "not configured".
  package var history: SummaryHistory?
  /// Price-test verdicts; `nil` prints "not configured".
  package var experiments: [ExperimentVerdict]?
  /// Conversion into a reporting currency; `nil` ranks and thresholds money per currency.
  package var fx: SummaryFX?
  /// The tie-out against the stores' own reports; empty when no store report was read.
  package var tieOut: TieOut
  /// What the settlement reports pay out per report kind and payout currency
  /// (``PayoutTotal/payoutTotals(_:)``); empty when none was read.
  package var payouts: [PayoutTotal]
  /// The counts table (per store and product: chains paid through, active entitlements, the store
  /// report's paid units); the summary shows the rows a store report covers.
  package var counts: [CountsRow]
  /// What needs a look although the run is complete (a damaged input read with `--allow-damaged`, an
  /// empty entitlements contract beside store data): each one line of the headline; status ATTENTION.
  package var attention: [String] = []
  /// Lines the Inputs section adds under its table (the records read twice and counted once).
  package var inputNotes: [String] = []
  /// The run's cases with their states (docs/cases.md); `nil`: made from the findings, the tie-out and
  /// the inputs, every one new.
  package var cases: CaseBook?
  /// Deferred revenue at T per currency (revenue_recognition.csv's closing balances of T's month), in
  /// currency code order; `nil` leaves the line out.
  package var deferredAtT: [Money]?
  /// payouts.csv's lines (``Payouts/lines(_:fx:)``): the summary names each store's last payout.
  package var payoutLines: [PayoutLine] = []
  /// What the next steps' links start with (the config's `docsBaseURL`).
  package var docsBase = NextStep.defaultDocsBase

  /// Creates facts with no optional section.
  package init(
    version: String, date: CivilDate, asOf: Instant, timeZone: String, inputs: [InputReport],
    findings: [Finding],
    revenue: [RevenueRow], alerts: [AlertRule] = [], incomplete: [String] = [],
    history: SummaryHistory? = nil,
    experiments: [ExperimentVerdict]? = nil, fx: SummaryFX? = nil, tieOut: TieOut = TieOut(),
    payouts: [PayoutTotal] = [], counts: [CountsRow] = []
  ) {
    self.version = version
    self.date = date
    self.asOf = asOf
    self.timeZone = timeZone
    self.inputs = inputs
    self.findings = findings
    self.revenue = revenue
    self.alerts = alerts
    self.incomplete = incomplete
    self.history = history
    self.experiments = experiments
    self.fx = fx
    self.tieOut = tieOut
    self.payouts = payouts
    self.counts = counts
  }
}
