package import StoreReconCore

/// Everything `summary.txt` and `summary.html` say (and the e-mail carries), built from plain values.
///
/// Pure: no file, clock or environment. The first line (``headline``) is the status (``RunStatus``) —
/// `OK`, or the words `ALERT`, `INCOMPLETE` and `ATTENTION` that apply, joined by `, ` — with its
/// one-line reason, then every exceeded threshold, incompleteness reason and line that needs attention.
package struct ReportSummary: Sendable {
  /// Findings of one kind/reason.
  package struct FindingGroup: Sendable, Equatable {
    package var reason: Finding.Reason
    /// Findings reported by this run.
    package var count: Int
    /// Money at stake per currency (currencies in code order).
    package var atStake: [Money]
    /// Findings that carry no amount (`no_store_record`).
    package var withoutAmount: Int
    /// With run history: first seen in this run, seen before and still reported, reported before and gone.
    package var new: Int?
    package var stillOpen: Int?
    package var resolved: Int?
    /// With an FX table: the money at stake converted into the reporting currency, counted once per
    /// chain (docs/cases.md#money-at-stake); the groups are ranked by it.
    package var atStakeReporting: Money?
  }

  /// One ranked list of the largest findings.
  package struct Ranking: Sendable {
    /// `USD`, or the reporting currency with the FX label.
    package var title: String
    /// The findings, largest first.
    package var findings: [Finding]
    /// Their amounts converted into the reporting currency (ranking with FX only).
    package var converted: [Money]?
  }

  /// Revenue of one store and currency on the report day and month to date.
  package struct RevenueLine: Sendable, Equatable {
    package var store: Store
    package var currency: Currency
    package var dayCharges: Int
    package var dayGrossMinor: Int64
    package var dayTaxMinor: Int64
    package var dayRefundsMinor: Int64
    package var monthCharges: Int
    package var monthGrossMinor: Int64
    package var monthRefundsMinor: Int64
  }

  /// The facts it was built from.
  package var facts: SummaryFacts
  /// Exceeded thresholds.
  package var breaches: [AlertBreach]
  /// Findings per kind/reason, in the order of docs/rules.md; reasons with neither findings nor resolved ones are left out.
  package var groups: [FindingGroup]
  /// Whether ``rankings`` hold only new findings (run history present).
  package var rankedNewOnly: Bool
  /// The ten largest (new) findings: one list in the reporting currency with FX, else one list per currency.
  package var rankings: [Ranking]
  /// Findings left out of the ranking for want of an amount or an FX rate.
  package var unranked: Int
  /// Revenue per store and currency.
  package var revenue: [RevenueLine]

  /// How many findings each ranking lists.
  package static let rankingSize = 10

  /// The run's one status (``RunStatus``), decided once from the facts.
  package var runStatus: RunStatus

  /// `OK`, or `ALERT`, `INCOMPLETE`, `ATTENTION` joined by `, ` (in that order).
  package var status: String { runStatus.label }

  /// Whether any threshold is exceeded.
  package var isAlert: Bool { !breaches.isEmpty }
  /// Whether any input does not cover the report date.
  package var isIncomplete: Bool { !facts.incomplete.isEmpty }

  /// The first line of the summary: the status, the cases and their money at stake, the date — what the
  /// e-mail subject says (`ATTENTION — 3 new (45.00 USD), 12 open (1,234.56 USD) — 2026-11-29`) — then
  /// the reason and every line behind the status (thresholds exceeded, incompleteness, what needs
  /// attention), separated by `; `.
  package var headline: String {
    var parts = ["\(status) — \(runStatus.casesPhrase) — \(facts.date)"]
    parts += runStatus.details
    if breaches.isEmpty && facts.incomplete.isEmpty {
      parts.append(facts.alerts.isEmpty ? "no thresholds configured" : "no threshold exceeded")
      parts.append("inputs cover \(facts.date)")
    }
    return parts.joined(separator: "; ")
  }

  /// The e-mail subject: `prefix` and the headline up to its first `; `.
  package func subject(prefix: String) -> String { Self.subject(prefix: prefix, headline: headline) }

  /// The subject for a summary whose first line is `headline` (the `mail` command reads it from summary.txt).
  package static func subject(prefix: String, headline: String) -> String {
    let short = headline.components(separatedBy: "; ").first ?? headline
    return prefix.isEmpty ? short : "\(prefix) \(short)"
  }

  /// Builds the summary, deciding its status.
  package static func build(_ facts: SummaryFacts) -> ReportSummary {
    build(facts, status: decideStatus(facts))
  }

  /// Builds the summary with the status the run decided before (``decideStatus(_:)`` of these facts).
  package static func build(_ facts: SummaryFacts, status: RunStatus) -> ReportSummary {
    let breaches = AlertRule.breaches(
      facts.alerts, findings: facts.findings, tieOut: facts.tieOut, fx: facts.fx)
    let groups = findingGroups(facts)
    let (rankings, unranked) = rank(facts)
    return ReportSummary(
      facts: facts, breaches: breaches, groups: groups, rankedNewOnly: facts.history != nil,
      rankings: rankings,
      unranked: unranked, revenue: revenueLines(facts), runStatus: status)
  }

  /// The run's status from its facts: the one decision (``RunStatus/decide(_:)``) every report shows.
  package static func decideStatus(_ facts: SummaryFacts) -> RunStatus {
    let breaches = AlertRule.breaches(
      facts.alerts, findings: facts.findings, tieOut: facts.tieOut, fx: facts.fx)
    return RunStatus.decide(RunStatus.Inputs(facts, breaches: breaches))
  }

  static func findingGroups(_ facts: SummaryFacts) -> [FindingGroup] {
    var byReason: [Finding.Reason: [Finding]] = [:]
    for f in facts.findings { byReason[f.reason, default: []].append(f) }
    let groups = Finding.Reason.allCases.compactMap { reason -> FindingGroup? in
      let list = byReason[reason] ?? []
      let resolved = facts.history?.resolvedPerReason[reason]
      guard !list.isEmpty || (resolved ?? 0) > 0 else { return nil }
      var sums: [Currency: Int64] = [:]
      var withoutAmount = 0
      for f in list {
        if let c = f.currency, let a = f.amountMinor { sums[c, default: 0] += a } else { withoutAmount += 1 }
      }
      let stake = sums.keys.sorted().map { Money(minor: sums[$0] ?? 0, currency: $0) }
      var group = FindingGroup(
        reason: reason, count: list.count, atStake: stake, withoutAmount: withoutAmount, new: nil,
        stillOpen: nil,
        resolved: nil)
      if let history = facts.history {
        let new = list.filter { history.newFindingKeys.contains($0.key) }.count
        group.new = new
        group.stillOpen = list.count - new
        group.resolved = resolved ?? 0
      }
      group.atStakeReporting = converted(list, facts.fx)
      return group
    }
    // With an FX table the reasons are ranked by their money at stake, the largest first; ties (and
    // reasons without money) keep the order of docs/rules.md.
    guard facts.fx != nil else { return groups }
    return groups.enumerated().sorted { a, b in
      let x = a.element.atStakeReporting?.minor ?? -1
      let y = b.element.atStakeReporting?.minor ?? -1
      return x != y ? x > y : a.offset < b.offset
    }.map(\.element)
  }

  /// The findings' money at stake in the reporting currency, once per chain; `nil` without an FX table.
  static func converted(_ findings: [Finding], _ fx: SummaryFX?) -> Money? {
    guard let fx else { return nil }
    let stake = MoneyAtStake.of(
      findings.map {
        Case(
          CaseCandidate($0), state: .new, firstSeen: CivilDate(year: 1970, month: 1, day: 1), ageDays: 0,
          decision: nil)
      },
      reporting: fx.reportingCurrency, convert: fx.convert)
    return Money(minor: stake.reportingMinor ?? 0, currency: fx.reportingCurrency)
  }

  static func rank(_ facts: SummaryFacts) -> ([Ranking], Int) {
    var pool = facts.findings
    if let history = facts.history { pool = pool.filter { history.newFindingKeys.contains($0.key) } }
    var unranked = 0
    if let fx = facts.fx {
      var scored: [(Finding, Int64)] = []
      for f in pool {
        guard let c = f.currency, let a = f.amountMinor,
          let converted = fx.convert(Money(minor: a, currency: c))
        else {
          unranked += 1
          continue
        }
        scored.append((f, converted))
      }
      scored.sort { $0.1 != $1.1 ? $0.1 > $1.1 : Finding.reportOrder($0.0, $1.0) }
      let top = scored.prefix(rankingSize)
      guard !top.isEmpty else { return ([], unranked) }
      let title = "\(fx.reportingCurrency.code) (\(fx.label))"
      return (
        [
          Ranking(
            title: title, findings: top.map(\.0),
            converted: top.map { Money(minor: $0.1, currency: fx.reportingCurrency) })
        ], unranked
      )
    }
    var byCurrency: [Currency: [Finding]] = [:]
    for f in pool {
      guard let c = f.currency, f.amountMinor != nil else {
        unranked += 1
        continue
      }
      byCurrency[c, default: []].append(f)
    }
    let rankings = byCurrency.keys.sorted().map { currency in
      let list = (byCurrency[currency] ?? []).sorted {
        let a = $0.amountMinor ?? 0
        let b = $1.amountMinor ?? 0
        return a != b ? a > b : Finding.reportOrder($0, $1)
      }
      return Ranking(title: currency.code, findings: Array(list.prefix(rankingSize)), converted: nil)
    }
    return (rankings, unranked)
  }

  static func revenueLines(_ facts: SummaryFacts) -> [RevenueLine] {
    struct Key: Hashable, Comparable {
      var store: Store
      var currency: Currency
      static func < (a: Key, b: Key) -> Bool { (a.store, a.currency) < (b.store, b.currency) }
    }
    let date = facts.date
    var lines: [Key: RevenueLine] = [:]
    for row in facts.revenue where row.day.year == date.year && row.day.month == date.month && row.day <= date
    {
      let key = Key(store: row.store, currency: row.currency)
      var line =
        lines[key]
        ?? RevenueLine(
          store: row.store, currency: row.currency, dayCharges: 0, dayGrossMinor: 0, dayTaxMinor: 0,
          dayRefundsMinor: 0,
          monthCharges: 0, monthGrossMinor: 0, monthRefundsMinor: 0)
      line.monthCharges += row.charges
      line.monthGrossMinor += row.grossMinor
      line.monthRefundsMinor += row.refundsMinor
      if row.day == date {
        line.dayCharges += row.charges
        line.dayGrossMinor += row.grossMinor
        line.dayTaxMinor += row.taxMinor
        line.dayRefundsMinor += row.refundsMinor
      }
      lines[key] = line
    }
    return lines.keys.sorted().compactMap { lines[$0] }
  }
}
