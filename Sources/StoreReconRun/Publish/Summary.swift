import StoreReconCore
import StoreReconReports

/// The short text `storerecon run` prints on stdout: where the reports are and what they found.
package enum Summary {
  /// The text for `result`.
  package static func text(_ result: RunResult) -> String {
    var lines: [String] = []
    lines.append(
      "storerecon \(StoreReconVersion.version) — as of \(result.asOf) (report date \(result.date))")
    lines.append("reports: \(result.outDirectory)")
    lines.append("inputs:")
    for input in result.inputs {
      let from = input.database == nil ? "" : " (PostgreSQL)"
      let c = input.counts
      var line =
        "  \(input.role) \(input.path)\(from): read \(c.read) = accepted \(c.accepted) + rejected \(c.rejected)"
      if input.duplicates > 0 { line += " + duplicates \(input.duplicates)" }
      if input.superseded > 0 { line += " + superseded \(input.superseded)" }
      if let signatures = input.signatures {
        line += "  (signatures \(signatures), unverified \(input.unverified ?? 0))"
        if signatures.hasPrefix("off") { line += "  SIGNATURES NOT VERIFIED" }
        if let unpriced = input.unpriced, unpriced > 0 { line += "  (unpriced \(unpriced))" }
      }
      if let error = input.error { line += "  FAILED: \(error)" }
      lines.append(line)
    }
    lines.append("findings: \(result.findings.count)")
    // Money at stake per reason and currency, in one pass over the findings.
    var stakes: [Finding.Reason: [String: Int64]] = [:]
    for f in result.findings {
      if let c = f.currency, let a = f.amountMinor { stakes[f.reason, default: [:]][c.code, default: 0] += a }
    }
    for (reason, n) in result.findingsPerReason {
      let money = stakes[reason] ?? [:]
      let stake = money.keys.sorted().compactMap { code in
        Currency.named(code).map { "\($0.format(money[code] ?? 0)) \(code)" }
      }.joined(separator: ", ")
      lines.append(
        "  \(reason.kind.rawValue)/\(reason.rawValue): \(n)" + (stake.isEmpty ? "" : "  (at stake: \(stake))")
      )
    }
    if let history = result.history {
      let since = history.previousDate.map { "since the previous run (\($0))" } ?? "(first recorded run)"
      lines.append(
        "history \(since): \(history.newCount) new, \(history.openCount) still open, \(history.resolvedCount) resolved"
          + " — changes.csv")
      if result.backfill { lines.append("backfill: run on today's app rows; left out of trends") }
    }
    if let cases = result.cases {
      let states = Case.State.allCases.compactMap { state -> String? in
        let n = cases.count(state)
        return n == 0 ? nil : "\(n) \(state.rawValue)"
      }
      let against =
        cases.historyKept
        ? (cases.previousDate.map { " (against \($0))" } ?? " (first recorded run)") : " (no run history)"
      lines.append(
        "cases\(against): \(states.isEmpty ? "none" : states.joined(separator: ", ")) — cases.csv; "
          + "settle with storerecon settle (docs/cases.md)")
    }
    for (store, n) in result.uncheckedEntitlements.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "  not checked: \(n) active \(store.rawValue) entitlements (the config names no \(store.rawValue) export)"
      )
    }
    lines += ExperimentSummary.lines(result.experiments)
    return lines.joined(separator: "\n") + "\n"
  }
}
