package import StoreReconCore

/// The run's one status — OK, ATTENTION, ALERT, INCOMPLETE — decided once, from plain values, with its
/// one-line reason; stdout, the e-mail subject, summary.txt/html and the workbook's first row all show
/// this value (docs/reports.md#the-status).
///
/// The rules (ALERT and INCOMPLETE both show when both apply, `ALERT, INCOMPLETE`; ATTENTION shows
/// only when neither does, its causes still in the reason):
/// - ALERT: a threshold of the config's `"alerts"` is exceeded;
/// - INCOMPLETE: an input does not cover the report date (or is missing, or could not be read);
/// - ATTENTION: an unsettled case — `new`, `open` or `reopened` (docs/cases.md): a finding, a tie-out
///   difference (a cell or a Play order that does not match), or an input whose rejected rows are more
///   than ``rejectedShareLimitPerMille`` ‰ of its rows; or a line the run drew attention to (a damaged
///   input read with `--allow-damaged`, an empty entitlements contract).
///
/// OK means none applies: nothing new and nothing unsettled; a settled case (`decisions.csv`) does not
/// raise the status until its decision expires or its amount grows past the decision's cap.
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
    /// Used only where ``cases`` is `nil`.
    package var newFindingKeys: Set<String>?
    package var tieOut: TieOut
    package var inputs: [InputReport]
    /// The run's cases with their states; `nil`: made from the findings, the tie-out and the inputs,
    /// every one new (or open where ``newFindingKeys`` says it was seen before).
    package var cases: CaseBook?
    /// The conversion into the reporting currency for the money at stake; `nil`: per currency.
    package var fx: SummaryFX?
    /// The report date (for the headline).
    package var date: CivilDate?

    /// Creates the inputs of the decision.
    package init(
      breaches: [AlertBreach] = [], incomplete: [String] = [], attention: [String] = [],
      findings: [Finding] = [], newFindingKeys: Set<String>? = nil, tieOut: TieOut = TieOut(),
      inputs: [InputReport] = [], cases: CaseBook? = nil, fx: SummaryFX? = nil, date: CivilDate? = nil
    ) {
      self.breaches = breaches
      self.incomplete = incomplete
      self.attention = attention
      self.findings = findings
      self.newFindingKeys = newFindingKeys
      self.tieOut = tieOut
      self.inputs = inputs
      self.cases = cases
      self.fx = fx
      self.date = date
    }

    /// The inputs of a summary's facts, with the thresholds they exceed.
    package init(_ facts: SummaryFacts, breaches: [AlertBreach]) {
      self.init(
        breaches: breaches, incomplete: facts.incomplete, attention: facts.attention,
        findings: facts.findings, newFindingKeys: facts.history?.newFindingKeys, tieOut: facts.tieOut,
        inputs: facts.inputs, cases: facts.cases, fx: facts.fx, date: facts.date)
    }

    /// The cases: ``cases``, or made from the findings, tie-out and inputs without history.
    package var caseBook: CaseBook {
      if let cases { return cases }
      let candidates = CaseCandidate.all(
        findings: findings, tieOut: tieOut, inputs: inputs,
        rejectedShareLimitPerMille: rejectedShareLimitPerMille)
      let day = date ?? CivilDate(year: 1970, month: 1, day: 1)
      var book = CaseBook.build(
        candidates: candidates, date: day, previous: nil, firstSeen: [:], decisions: [], historyKept: false)
      if let seen = newFindingKeys {
        for i in book.cases.indices
        where book.cases[i].source == .finding && !seen.contains(book.cases[i].key) {
          book.cases[i].state = .open
        }
      }
      return book
    }
  }

  /// An input's rejected rows above this share of its rows (per mille: 1 = 0.1 %) → a case.
  package static let rejectedShareLimitPerMille = 1

  /// The words that apply: ALERT and/or INCOMPLETE, else ATTENTION, else none (OK).
  package var words: [Word]
  /// The one-line reason: each word's short cause, joined by `, ` (`nothing new, nothing open` for OK).
  package var reason: String
  /// Every line behind the status, most severe first (the headline lists them after the reason).
  package var details: [String]
  /// The cases and their money: `3 new (45.00 USD), 12 open (1,234.56 USD)` (`, 4 settled` where
  /// any are; `, 1,234 App Store lines unverified` where any were accepted unverified): what the
  /// e-mail subject says after the label.
  package var casesPhrase: String = ""
  /// The money at stake of the new (and reopened) cases, and of the open ones.
  package var newAtStake: MoneyAtStake?
  package var openAtStake: MoneyAtStake?

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
    let book = inputs.caseBook
    let attention = attentionCauses(inputs, book: book)
    if !attention.causes.isEmpty {
      // ATTENTION is the lowest call: where ALERT or INCOMPLETE already calls a human, its causes stay
      // in the reason and the details, not in the label.
      if words.isEmpty { words.append(.attention) }
      causes += attention.causes
      details += attention.details
    }
    let reason = causes.isEmpty ? "nothing new, nothing open" : causes.joined(separator: ", ")
    var status = RunStatus(words: words, reason: reason, details: details)
    let reporting = inputs.fx?.reportingCurrency
    let convert: (Money) -> Int64? = { money in inputs.fx?.convert(money) }
    let new = book.cases.filter { $0.state == .new || $0.state == .reopened }
    let open = book.cases.filter { $0.state == .open }
    let newStake = MoneyAtStake.of(new, reporting: reporting, convert: convert)
    let openStake = MoneyAtStake.of(open, reporting: reporting, convert: convert)
    var phrase =
      "\(Grouped.count(new.count)) new\(moneyNote(newStake)), \(Grouped.count(open.count)) open\(moneyNote(openStake))"
    let settled = book.count(.settled)
    if settled > 0 { phrase += ", \(Grouped.count(settled)) settled" }
    if let unverified = unverifiedPhrase(inputs.inputs) { phrase += ", " + unverified }
    status.casesPhrase = phrase
    status.newAtStake = newStake
    status.openAtStake = openStake
    return status
  }

  /// `1,234 App Store lines unverified`: the accepted App Store lines no signature was verified for
  /// (decoded lines under `appStore.signatures` `verify`, every line under `off`), which every status
  /// line states; `nil` where there are none (docs/signatures.md).
  static func unverifiedPhrase(_ inputs: [InputReport]) -> String? {
    let n = inputs.reduce(0) { $0 + ($1.signatures == nil ? 0 : $1.unverified ?? 0) }
    guard n > 0 else { return nil }
    return "\(Grouped.count(n)) App Store \(n == 1 ? "line" : "lines") unverified"
  }

  /// ` (45.00 USD)`, ` (45.00 USD + 1,200 JPY)`, or empty where no money is at stake.
  static func moneyNote(_ stake: MoneyAtStake) -> String {
    let text = moneyText(stake)
    return text.isEmpty ? "" : " (\(text))"
  }

  /// The money at stake as text: the reporting currency's sum, then each unconverted currency's;
  /// empty where there is none.
  package static func moneyText(_ stake: MoneyAtStake) -> String {
    var parts: [String] = []
    if let currency = stake.reportingCurrency, let minor = stake.reportingMinor, minor != 0 {
      parts.append(Grouped.money(Money(minor: minor, currency: currency)))
    }
    for money in stake.unconverted where money.minor != 0 {
      parts.append(Grouped.money(money) + (stake.reportingCurrency == nil ? "" : " (no rate)"))
    }
    return parts.joined(separator: " + ")
  }

  /// The ATTENTION rules: short causes for the reason, and the detail lines.
  static func attentionCauses(_ inputs: Inputs) -> (causes: [String], details: [String]) {
    attentionCauses(inputs, book: inputs.caseBook)
  }

  static func attentionCauses(_ inputs: Inputs, book: CaseBook) -> (causes: [String], details: [String]) {
    var causes: [String] = []
    var details: [String] = []
    let unsettled = book.cases.filter { $0.state.isUnsettled }
    if !unsettled.isEmpty {
      let new = unsettled.filter { $0.state == .new }
      let reopened = unsettled.filter { $0.state == .reopened }
      let open = unsettled.filter { $0.state == .open }
      if !new.isEmpty { causes.append("\(Grouped.count(new.count)) new") }
      if !reopened.isEmpty { causes.append("\(Grouped.count(reopened.count)) reopened") }
      if !open.isEmpty { causes.append("\(Grouped.count(open.count)) open") }
      let noun = book.historyKept ? "new" : "new (no run history: all new)"
      for (state, list) in [(noun, new), ("reopened", reopened), ("open, not settled", open)]
      where !list.isEmpty {
        details.append("\(state): " + bySource(list))
      }
    }
    // The inputs with an unsettled rejected-rows case, found through one set of their paths (not a scan
    // of every case per input: thousands of cases times a hundred inputs).
    var rejectingPaths = Set<String>()
    for c in book.cases where c.source == .rejectedRows && c.state.isUnsettled {
      rejectingPaths.insert(c.subject)
    }
    let rejecting = inputs.inputs.filter { rejectingPaths.contains($0.path) }
    if !rejecting.isEmpty {
      let each = rejecting.map { input in
        "\(input.path) \(Grouped.count(input.counts.rejected)) of \(Grouped.count(input.counts.read))"
      }
      details.append("rejected rows above 0.1 %: \(each.joined(separator: ", ")) (see rejects/)")
    }
    if book.count(.settled) > 0 {
      details.append("settled (decisions.csv): \(bySource(book.cases.filter { $0.state == .settled }))")
    }
    if !inputs.attention.isEmpty {
      causes.append(counted(inputs.attention.count, "input needs a look", "inputs need a look"))
      details += inputs.attention
    }
    return (causes, details)
  }

  /// `160 findings, 14 tie-out cells, 8 tie-out orders, 1 input with rejected rows` (only sources present;
  /// an order is a Play order or a Stripe charge or refund of tieout_orders.csv).
  static func bySource(_ cases: [Case]) -> String {
    var parts: [String] = []
    for source in Case.Source.allCases {
      let n = cases.filter { $0.source == source }.count
      guard n > 0 else { continue }
      switch source {
      case .finding: parts.append(counted(n, "finding", "findings"))
      case .tieOutCell: parts.append(counted(n, "tie-out cell", "tie-out cells"))
      case .tieOutOrder: parts.append(counted(n, "tie-out order", "tie-out orders"))
      case .rejectedRows: parts.append(counted(n, "input with rejected rows", "inputs with rejected rows"))
      }
    }
    return parts.joined(separator: ", ")
  }

  static func counted(_ n: Int, _ one: String, _ many: String) -> String {
    "\(Grouped.count(n)) \(n == 1 ? one : many)"
  }
}
