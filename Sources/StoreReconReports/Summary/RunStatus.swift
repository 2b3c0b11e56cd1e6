package import StoreReconCore

/// The run's one status — OK, ATTENTION, ALERT, INCOMPLETE — decided once, from plain values, with its
/// one-line reason; stdout, the e-mail subject, summary.txt/html and the workbook's first row all show
/// this value (docs/reports.md#the-status).
///
/// The rules (ALERT and INCOMPLETE both show when both apply, `ALERT, INCOMPLETE`; ATTENTION shows
/// only when neither does, its causes still in the reason):
/// - ALERT: a threshold of the config's `"alerts"` is exceeded;
/// - INCOMPLETE: an input does not cover the report date (or is missing, or could not be read);
/// - ATTENTION: a *new* finding with money at stake (run history says new; without history every finding
///   is new), any tie-out difference (a cell or a Play order that does not match), an input whose
///   rejected rows are more than ``rejectedShareLimitPerMille`` ‰ of its rows, or a line the run drew
///   attention to (a damaged input read with `--allow-damaged`, an empty entitlements contract).
///
/// OK means none applies: nothing new needs a human.
package struct RunStatus: Sendable, Equatable {
  /// One word of the status.
  package enum Word: String, Sendable, CaseIterable, Comparable {
    case alert = "ALERT"
    case incomplete = "INCOMPLETE"
    case attention = "ATTENTION"

    package static func < (a: Word, b: Word) -> Bool {
      (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
  }

  /// What the status is decided from.
  package struct Inputs: Sendable {
    package var breaches: [AlertBreach]
    package var incomplete: [String]
    /// Lines the run itself drew attention to (damaged inputs, an empty contract).
    package var attention: [String]
    package var findings: [Finding]
    /// Keys of the findings first seen in this run; `nil` without run history (every finding is new).
    package var newFindingKeys: Set<String>?
    package var tieOut: TieOut
    package var inputs: [InputReport]

    /// Creates the inputs of the decision.
    package init(
      breaches: [AlertBreach] = [], incomplete: [String] = [], attention: [String] = [],
      findings: [Finding] = [], newFindingKeys: Set<String>? = nil, tieOut: TieOut = TieOut(),
      inputs: [InputReport] = []
    ) {
      self.breaches = breaches
      self.incomplete = incomplete
      self.attention = attention
      self.findings = findings
      self.newFindingKeys = newFindingKeys
      self.tieOut = tieOut
      self.inputs = inputs
    }

    /// The inputs of a summary's facts, with the thresholds they exceed.
    package init(_ facts: SummaryFacts, breaches: [AlertBreach]) {
      self.init(
        breaches: breaches, incomplete: facts.incomplete, attention: facts.attention,
        findings: facts.findings, newFindingKeys: facts.history?.newFindingKeys, tieOut: facts.tieOut,
        inputs: facts.inputs)
    }
  }

  /// An input's rejected rows above this share of its rows (per mille: 1 = 0.1 %) → ATTENTION.
  package static let rejectedShareLimitPerMille = 1

  /// The words that apply: ALERT and/or INCOMPLETE, else ATTENTION, else none (OK).
  package var words: [Word]
  /// The one-line reason: each word's short cause, joined by `, ` (`nothing new needs a look` for OK).
  package var reason: String
  /// Every line behind the status, most severe first (the headline lists them after the reason).
  package var details: [String]

  /// `OK`, or the words joined by `, ` (`ALERT, ATTENTION`).
  package var label: String { words.isEmpty ? "OK" : words.map(\.rawValue).joined(separator: ", ") }
  /// The most severe word (`nil` for OK): it decides the colour.
  package var worst: Word? { words.min() }
  /// `label — reason`: what the workbook's first row and the top of every summary say.
  package var line: String { "\(label) — \(reason)" }

  /// Decides the status.
  package static func decide(_ inputs: Inputs) -> RunStatus {
    var words: [Word] = []
    var causes: [String] = []
    var details: [String] = []
    if !inputs.breaches.isEmpty {
      words.append(.alert)
      causes.append(counted(inputs.breaches.count, "threshold exceeded", "thresholds exceeded"))
      details += inputs.breaches.map(\.text)
    }
    if !inputs.incomplete.isEmpty {
      words.append(.incomplete)
      causes.append(counted(inputs.incomplete.count, "input incomplete", "inputs incomplete"))
      details += inputs.incomplete
    }
    let attention = attentionCauses(inputs)
    if !attention.causes.isEmpty {
      // ATTENTION is the lowest call: where ALERT or INCOMPLETE already calls a human, its causes stay
      // in the reason and the details, not in the label.
      if words.isEmpty { words.append(.attention) }
      causes += attention.causes
      details += attention.details
    }
    let reason = causes.isEmpty ? "nothing new needs a look" : causes.joined(separator: ", ")
    return RunStatus(words: words, reason: reason, details: details)
  }

  /// The ATTENTION rules: short causes for the reason, and the detail lines.
  static func attentionCauses(_ inputs: Inputs) -> (causes: [String], details: [String]) {
    var causes: [String] = []
    var details: [String] = []
    let atStake = inputs.findings.filter { f in
      guard let amount = f.amountMinor, amount != 0 else { return false }
      return inputs.newFindingKeys?.contains(f.key) ?? true
    }
    if !atStake.isEmpty {
      let noun = inputs.newFindingKeys == nil ? "findings (no run history: all new)" : "new findings"
      causes.append("\(Grouped.count(atStake.count)) new with money at stake")
      details.append("\(Grouped.count(atStake.count)) \(noun) with money at stake")
    }
    let cells = inputs.tieOut.cells.filter { $0.status != .match }.count
    let orders = inputs.tieOut.orders.filter { $0.status != .match }.count
    if cells + orders > 0 {
      causes.append(counted(cells + orders, "tie-out difference", "tie-out differences"))
      var parts: [String] = []
      if cells > 0 { parts.append(counted(cells, "cell", "cells")) }
      if orders > 0 { parts.append(counted(orders, "Play order", "Play orders")) }
      details.append("tie-out: \(parts.joined(separator: " and ")) differ from the stores' reports")
    }
    let rejecting = inputs.inputs.filter { input in
      let c = input.counts
      return c.rejected > 0 && c.rejected * 1000 > c.read * rejectedShareLimitPerMille
    }
    if !rejecting.isEmpty {
      causes.append(counted(rejecting.count, "input with rejected rows", "inputs with rejected rows"))
      let each = rejecting.map { input in
        "\(input.path) \(Grouped.count(input.counts.rejected)) of \(Grouped.count(input.counts.read))"
      }
      details.append("rejected rows above 0.1 %: \(each.joined(separator: ", ")) (see rejects/)")
    }
    if !inputs.attention.isEmpty {
      causes.append(counted(inputs.attention.count, "input needs a look", "inputs need a look"))
      details += inputs.attention
    }
    return (causes, details)
  }

  static func counted(_ n: Int, _ one: String, _ many: String) -> String {
    "\(Grouped.count(n)) \(n == 1 ? one : many)"
  }
}
