/// The short text `storerecon run` prints on stdout: where the reports are and what they found.
enum Summary {
  static func text(_ result: RunResult) -> String {
    var lines: [String] = []
    lines.append("storerecon \(StoreReconVersion.version) — as of \(result.asOf) (report date \(result.date))")
    lines.append("reports: \(result.outDirectory)")
    lines.append("inputs:")
    for input in result.inputs {
      var line = "  \(input.role) \(input.path): read \(input.counts.read) = accepted \(input.counts.accepted) + rejected \(input.counts.rejected)"
      if let error = input.error { line += "  FAILED: \(error)" }
      lines.append(line)
    }
    lines.append("findings: \(result.findings.count)")
    for (reason, n) in result.findingsPerReason {
      var money: [String: Int64] = [:]
      for f in result.findings where f.reason == reason {
        if let c = f.currency, let a = f.amountMinor { money[c.code, default: 0] += a }
      }
      let stake = money.keys.sorted().compactMap { code in
        Currency.named(code).map { "\($0.format(money[code] ?? 0)) \(code)" }
      }.joined(separator: ", ")
      lines.append("  \(reason.kind.rawValue)/\(reason.rawValue): \(n)" + (stake.isEmpty ? "" : "  (at stake: \(stake))"))
    }
    for (store, n) in result.uncheckedEntitlements.sorted(by: { $0.key < $1.key }) {
      lines.append("  not checked: \(n) active \(store.rawValue) entitlements (the config names no \(store.rawValue) export)")
    }
    lines += ExperimentSummary.lines(result.experiments)
    return lines.joined(separator: "\n") + "\n"
  }
}
