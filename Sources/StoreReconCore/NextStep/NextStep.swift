/// What a person does today about one kind of difference, and the docs section that explains it.
///
/// The sentences live here once and, word for word, under their anchors in docs/ (a `**What to do:**`
/// line in the section); a test holds the two together (docs/reports.md#what-to-do-and-docs).
package struct NextStep: Sendable, Equatable {
  /// What the step is about.
  package enum Subject: Hashable, Sendable {
    /// A finding of this reason (its kind follows from it).
    case finding(Finding.Reason)
    /// A tie-out cell of this status (never `match`).
    case tieOutCell(TieOutCell.Status)
    /// A Google Play order of this status (never `match`).
    case tieOutOrder(TieOutOrder.Status)
    /// An input with rejected rows.
    case rejectedRows

    /// Every subject that must have a step: every reason, every status but `match`, rejected rows.
    package static var all: [Subject] {
      Finding.Reason.allCases.map { .finding($0) }
        + TieOutCell.Status.allCases.filter { $0 != .match }.map { .tieOutCell($0) }
        + TieOutOrder.Status.allCases.filter { $0 != .match }.map { .tieOutOrder($0) }
        + [.rejectedRows]
    }

    /// The subject as the reports and thresholds name it: `free_entitlement/refunded`,
    /// `tieout/report_more`, `tieout_orders/fee_differs`, `rejects`.
    package var name: String {
      switch self {
      case .finding(let reason): return "\(reason.kind.rawValue)/\(reason.rawValue)"
      case .tieOutCell(let status): return "tieout/\(status.rawValue)"
      case .tieOutOrder(let status): return "tieout_orders/\(status.rawValue)"
      case .rejectedRows: return "rejects"
      }
    }
  }

  /// What the step is about.
  package var subject: Subject
  /// One or two sentences a finance or support person can act on.
  package var whatToDo: String
  /// The docs page and the heading's anchor that explain it, relative to docs/
  /// (`rules.md#orphaned_chargeunclaimed`).
  package var anchor: String

  /// Creates a step.
  package init(_ subject: Subject, _ whatToDo: String, _ anchor: String) {
    self.subject = subject
    self.whatToDo = whatToDo
    self.anchor = anchor
  }

  /// The link to the docs section: `base` (the config's `docsBaseURL`, default `docs/`) then the anchor.
  package func link(base: String) -> String { base + anchor }

  /// The default docs base: links relative to the project's docs folder.
  package static let defaultDocsBase = "docs/"

  /// The step of `subject`, `nil` where the table has none (a `match`).
  package static func of(_ subject: Subject) -> NextStep? { bySubject[subject] }

  /// The step of a finding's reason.
  package static func of(_ reason: Finding.Reason) -> NextStep? { bySubject[.finding(reason)] }

  /// The step of a tie-out cell's status; `nil` for `match`.
  package static func of(_ status: TieOutCell.Status) -> NextStep? { bySubject[.tieOutCell(status)] }

  /// The step of a Play order's status; `nil` for `match`.
  package static func of(_ status: TieOutOrder.Status) -> NextStep? { bySubject[.tieOutOrder(status)] }

  /// The table by subject.
  static let bySubject: [Subject: NextStep] = Dictionary(
    table.map { ($0.subject, $0) }, uniquingKeysWith: { first, _ in first })
}
