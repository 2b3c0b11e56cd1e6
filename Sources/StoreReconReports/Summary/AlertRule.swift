package import StoreReconCore

/// One configured threshold (config `"alerts"`): the findings of a kind, or of one kind/reason, may not
/// exceed a count and/or an amount of money at stake.
///
/// Limits are exclusive: a count or amount equal to the limit is fine; one more finding or one more minor
/// unit exceeds it. Money limits are per currency (`maxAmount`, minor units of each currency; a currency
/// not listed has no money limit) or, where the run converts money with an FX table, one limit in the
/// reporting currency (`maxAmountMinor`). Findings without an amount count towards `maxCount` only.
package struct AlertRule: Sendable, Equatable {
  /// The kind the rule watches.
  package var kind: Finding.Kind
  /// The reason it watches, or `nil` for every reason of the kind.
  package var reason: Finding.Reason?
  /// Maximum number of findings.
  package var maxCount: Int64?
  /// Maximum money at stake per currency, in that currency's minor units.
  package var maxAmount: [Currency: Int64]
  /// Maximum money at stake in the reporting currency's minor units (needs ``SummaryFX``).
  package var maxAmountReporting: Int64?

  /// Creates a rule.
  package init(
    kind: Finding.Kind, reason: Finding.Reason? = nil, maxCount: Int64? = nil,
    maxAmount: [Currency: Int64] = [:],
    maxAmountReporting: Int64? = nil
  ) {
    self.kind = kind
    self.reason = reason
    self.maxCount = maxCount
    self.maxAmount = maxAmount
    self.maxAmountReporting = maxAmountReporting
  }

  /// The config key: `free_entitlement` or `orphaned_charge/unclaimed`.
  package var name: String { reason.map { "\(kind.rawValue)/\($0.rawValue)" } ?? kind.rawValue }

  /// Whether the rule watches `finding`.
  package func watches(_ finding: Finding) -> Bool {
    finding.kind == kind && (reason == nil || finding.reason == reason)
  }

  /// Every limit the findings exceed, in the order count, per-currency amounts (by code), reporting amount.
  package func breaches(_ findings: [Finding], fx: SummaryFX?) -> [AlertBreach] {
    let watched = findings.filter(watches)
    var out: [AlertBreach] = []
    if let maxCount, Int64(watched.count) > maxCount {
      out.append(AlertBreach(rule: name, text: "\(name): \(watched.count) findings > maxCount \(maxCount)"))
    }
    var sums: [Currency: Int64] = [:]
    for finding in watched {
      if let currency = finding.currency, let amount = finding.amountMinor {
        sums[currency, default: 0] += amount
      }
    }
    for (currency, limit) in maxAmount.sorted(by: { $0.key < $1.key }) {
      let sum = sums[currency] ?? 0
      if sum > limit {
        out.append(
          AlertBreach(
            rule: name,
            text:
              "\(name): \(Money(minor: sum, currency: currency)) at stake > maxAmount \(Money(minor: limit, currency: currency))"
          ))
      }
    }
    if let limit = maxAmountReporting, let fx {
      var total: Int64 = 0
      var unconverted: [Currency] = []
      for (currency, sum) in sums.sorted(by: { $0.key < $1.key }) {
        if let converted = fx.convert(Money(minor: sum, currency: currency)) {
          total += converted
        } else {
          unconverted.append(currency)
        }
      }
      let note =
        unconverted.isEmpty ? "" : " (no rate for \(unconverted.map(\.code).joined(separator: ", ")))"
      if total > limit {
        let reporting = fx.reportingCurrency
        out.append(
          AlertBreach(
            rule: name,
            text:
              "\(name): \(Money(minor: total, currency: reporting)) at stake (\(fx.label))\(note) > maxAmountMinor \(Money(minor: limit, currency: reporting))"
          ))
      }
    }
    return out
  }

  /// Every breach of every rule, rules in the order given.
  package static func breaches(_ rules: [AlertRule], findings: [Finding], fx: SummaryFX?) -> [AlertBreach] {
    rules.flatMap { $0.breaches(findings, fx: fx) }
  }
}
