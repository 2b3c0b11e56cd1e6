/// One line of `decisions.csv`: a person's decision about a case (docs/cases.md#decisionscsv).
///
/// Columns: `key, decision, reason, by, until, max_amount_minor`. `decision` is `accept` (a known
/// difference, accepted: the case is settled while the decision holds). `until` (a date, inclusive)
/// and `max_amount_minor` (the largest amount at stake, in the case's own minor units, that the
/// decision covers) are optional.
package struct CaseDecision: Sendable, Equatable {
  /// What a decision says.
  package enum Verdict: String, Sendable, CaseIterable {
    /// Accepted as it is: settled.
    case accept
  }

  /// The case key it is about.
  package var key: String
  package var verdict: Verdict
  /// Why (required).
  package var reason: String
  /// Who decided (required).
  package var by: String
  /// The last report date the decision holds for; `nil`: until withdrawn.
  package var until: CivilDate?
  /// The largest absolute amount at stake, in the case's minor units, that it covers; `nil`: any.
  package var maxAmountMinor: Int64?
  /// The line of `decisions.csv` it came from (1 = the header), for messages.
  package var line: Int

  /// Creates a decision.
  package init(
    key: String, verdict: Verdict, reason: String, by: String, until: CivilDate?, maxAmountMinor: Int64?,
    line: Int
  ) {
    self.key = key
    self.verdict = verdict
    self.reason = reason
    self.by = by
    self.until = until
    self.maxAmountMinor = maxAmountMinor
    self.line = line
  }

  /// The header `decisions.csv` starts with.
  package static let header = ["key", "decision", "reason", "by", "until", "max_amount_minor"]

  /// A decision from the six fields of a line, or a message saying what is wrong with it.
  package static func parse(_ fields: [String], line: Int) -> Result<CaseDecision, CaseDecisionError> {
    func fail(_ why: String) -> Result<CaseDecision, CaseDecisionError> {
      .failure(CaseDecisionError(line: line, message: why))
    }
    guard fields.count == header.count else {
      return fail(
        "expected \(header.count) fields (\(header.joined(separator: ", "))), found \(fields.count)")
    }
    let key = fields[0].trimmed
    guard !key.isEmpty else { return fail("the key is empty") }
    guard let verdict = Verdict(rawValue: fields[1].trimmed) else {
      return fail(
        "decision '\(fields[1])' is not one of: \(Verdict.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let reason = fields[2].trimmed
    guard !reason.isEmpty else { return fail("the reason is empty: say why the case is accepted") }
    let by = fields[3].trimmed
    guard !by.isEmpty else { return fail("'by' is empty: say who decided") }
    var until: CivilDate?
    if !fields[4].trimmed.isEmpty {
      guard let date = CivilDate.parse(fields[4].trimmed) else {
        return fail("until '\(fields[4])' is not a date (YYYY-MM-DD)")
      }
      until = date
    }
    var cap: Int64?
    if !fields[5].trimmed.isEmpty {
      guard let value = Int64(fields[5].trimmed), value >= 0 else {
        return fail("max_amount_minor '\(fields[5])' is not a whole number of minor units ≥ 0")
      }
      cap = value
    }
    return .success(
      CaseDecision(
        key: key, verdict: verdict, reason: reason, by: by, until: until, maxAmountMinor: cap, line: line))
  }

  /// The line's six fields, in `decisions.csv` order.
  package var fields: [String] {
    [
      key, verdict.rawValue, reason, by, until?.description ?? "",
      maxAmountMinor.map { String($0) } ?? "",
    ]
  }
}

/// What is wrong with a line of `decisions.csv`.
package struct CaseDecisionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The line (1 = the header).
  package var line: Int
  package var message: String

  /// Creates the error.
  package init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  package var description: String { "line \(line): \(message)" }
}

extension String {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmed: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
    while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
    return String(s)
  }
}
