/// A problem a person can act on: a finding, a tie-out difference, or an input with rejected rows,
/// keyed by its stable key, with its state against the run history and the decisions finance made
/// (docs/cases.md).
package struct Case: Sendable, Equatable {
  /// Where a case comes from.
  package enum Source: String, Sendable, CaseIterable, Comparable {
    /// A finding of the rules (docs/rules.md).
    case finding
    /// A tie-out cell that differs from the store's report (docs/tieout.md).
    case tieOutCell = "tieout_cell"
    /// A Play order that differs between the sales and the earnings report (docs/tieout.md).
    case tieOutOrder = "tieout_order"
    /// An input whose rejected rows are above the share the status allows (docs/reports.md).
    case rejectedRows = "rejected_rows"

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    package static func < (a: Source, b: Source) -> Bool { a.rank < b.rank }
  }

  /// How the case stands this morning.
  package enum State: String, Sendable, CaseIterable, Comparable {
    /// No earlier run saw it.
    case new
    /// Seen by an earlier run, by the previous one too, and not settled.
    case open
    /// Came back after a run that did not have it, or grew past the amount it was settled for.
    case reopened
    /// Accepted by a person (a decision in `decisions.csv` that has not expired and whose cap holds).
    case settled
    /// The previous run had it; this run does not.
    case resolved

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    package static func < (a: State, b: State) -> Bool { a.rank < b.rank }

    /// Whether a case in this state still needs a person: new, open or reopened.
    package var isUnsettled: Bool { self == .new || self == .open || self == .reopened }
  }

  /// The stable key: a finding's `finding_key`, or 16 hex digits of SHA-256 over what identifies a
  /// tie-out cell, a Play order or an input (``CaseCandidate``).
  package var key: String
  package var source: Source
  /// The finding kind, or the source's name for the other sources.
  package var kind: String
  /// The finding reason, or the tie-out status (`report_less`, `missing_in_earnings`, …), or
  /// `rejected_rows`.
  package var reason: String
  /// `app_store`, `play`, or empty for an input.
  package var store: String
  /// What the case is about, in a person's words: the chain key, the tie-out cell, the order id, the
  /// input's path.
  package var subject: String
  /// The app's user, where one is known.
  package var userId: String
  package var productId: String
  /// ISO 4217 code of `amountMinor`; `nil` where no amount is at stake.
  package var currency: String?
  /// Money at stake in minor units (a finding's `amount_minor`; a tie-out difference's gross
  /// difference); `nil` where none is known.
  package var amountMinor: Int64?
  /// The charge group the money belongs to (`store|chain key` for a finding): money at stake is counted
  /// once per group (``CaseBook/atStake(_:fx:)``); `nil` where the case's money is counted apart.
  package var chargeGroup: String?
  /// Whether the money of this case counts in the money at stake (findings: yes; tie-out differences
  /// and rejected rows: no, they are differences between records, not money taken).
  package var countsAtStake: Bool
  package var state: State
  /// The first report date whose run saw the case.
  package var firstSeen: CivilDate
  /// Days from `firstSeen` to the report date (0 on the first day).
  package var ageDays: Int
  /// The decision that settles it (or that it grew past, for `reopened`), if any applies to its key.
  package var decision: CaseDecision?
  /// Why the state is what it is when a decision is involved but does not settle the case
  /// (`decision expired 2026-11-20`, `amount 12.00 USD grew past the settled 10.00 USD`); else empty.
  package var note: String = ""

  /// Creates a case from its candidate, with its state.
  package init(
    _ candidate: CaseCandidate, state: State, firstSeen: CivilDate, ageDays: Int, decision: CaseDecision?,
    note: String = ""
  ) {
    self.key = candidate.key
    self.source = candidate.source
    self.kind = candidate.kind
    self.reason = candidate.reason
    self.store = candidate.store
    self.subject = candidate.subject
    self.userId = candidate.userId
    self.productId = candidate.productId
    self.currency = candidate.currency
    self.amountMinor = candidate.amountMinor
    self.chargeGroup = candidate.chargeGroup
    self.countsAtStake = candidate.countsAtStake
    self.state = state
    self.firstSeen = firstSeen
    self.ageDays = ageDays
    self.decision = decision
    self.note = note
  }

  /// `cases.csv` order: state, source, kind, reason, store, subject, user, key.
  package static func reportOrder(_ a: Case, _ b: Case) -> Bool {
    if (a.state, a.source, a.kind, a.reason) != (b.state, b.source, b.kind, b.reason) {
      return (a.state, a.source, a.kind, a.reason) < (b.state, b.source, b.kind, b.reason)
    }
    return (a.store, a.subject, a.userId, a.key) < (b.store, b.subject, b.userId, b.key)
  }
}
