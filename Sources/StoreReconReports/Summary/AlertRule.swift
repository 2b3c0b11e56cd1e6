package import StoreReconCore

/// One configured threshold (config `"alerts"`): the findings of a kind, or of one kind/reason, or the
/// tie-out cells or Play orders of one status, may not exceed a count and/or an amount of money.
///
/// Limits are exclusive: a count or amount equal to the limit is fine; one more finding or one more minor
/// unit exceeds it. Money limits are per currency (`maxAmount`, minor units of each currency; a currency
/// not listed has no money limit) or, where the run converts money with an FX table, one limit in the
/// reporting currency (`maxAmountMinor`). Findings without an amount count towards `maxCount` only. The
/// money of a tie-out cell is |`gross_diff_minor`| in its currency; of a Play order |earnings `Charge` −
/// sales `Item Price`| in its currency.
package struct AlertRule: Sendable, Equatable {
  /// What a rule watches.
  package enum Target: Sendable, Equatable {
    /// Findings of a kind, or of one of its reasons (`free_entitlement`, `orphaned_charge/unclaimed`).
    case findings(Finding.Kind, Finding.Reason?)
    /// Tie-out cells of one status (`tieout/report_more`).
    case tieOutCells(TieOutCell.Status)
    /// Google Play orders of one status (`tieout_orders/missing_in_earnings`).
    case tieOutOrders(TieOutOrder.Status)
  }

  /// The config key prefix of tie-out cell rules.
  package static let tieOutPrefix = "tieout"
  /// The config key prefix of Play order rules.
  package static let tieOutOrdersPrefix = "tieout_orders"

  /// What the rule watches.
  package var target: Target
  /// Maximum number of findings, cells or orders.
  package var maxCount: Int64?
  /// Maximum money per currency, in that currency's minor units.
  package var maxAmount: [Currency: Int64]
  /// Maximum money in the reporting currency's minor units (needs ``SummaryFX``).
  package var maxAmountReporting: Int64?

  /// Creates a rule on findings.
  package init(
    kind: Finding.Kind, reason: Finding.Reason? = nil, maxCount: Int64? = nil,
    maxAmount: [Currency: Int64] = [:],
    maxAmountReporting: Int64? = nil
  ) {
    self.init(
      target: .findings(kind, reason), maxCount: maxCount, maxAmount: maxAmount,
      maxAmountReporting: maxAmountReporting)
  }

  /// Creates a rule on any target.
  package init(
    target: Target, maxCount: Int64? = nil, maxAmount: [Currency: Int64] = [:],
    maxAmountReporting: Int64? = nil
  ) {
    self.target = target
    self.maxCount = maxCount
    self.maxAmount = maxAmount
    self.maxAmountReporting = maxAmountReporting
  }

  /// The finding kind the rule watches (`nil` for a tie-out rule).
  package var kind: Finding.Kind? {
    if case .findings(let kind, _) = target { return kind }
    return nil
  }

  /// The finding reason it watches, or `nil` for every reason of the kind (and for a tie-out rule).
  package var reason: Finding.Reason? {
    if case .findings(_, let reason) = target { return reason }
    return nil
  }

  /// The config key: `free_entitlement`, `orphaned_charge/unclaimed`, `tieout/report_more`,
  /// `tieout_orders/missing_in_earnings`.
  package var name: String {
    switch target {
    case .findings(let kind, let reason):
      return reason.map { "\(kind.rawValue)/\($0.rawValue)" } ?? kind.rawValue
    case .tieOutCells(let status): return "\(Self.tieOutPrefix)/\(status.rawValue)"
    case .tieOutOrders(let status): return "\(Self.tieOutOrdersPrefix)/\(status.rawValue)"
    }
  }

  /// Whether the rule watches `finding`.
  package func watches(_ finding: Finding) -> Bool {
    guard case .findings(let kind, let reason) = target else { return false }
    return finding.kind == kind && (reason == nil || finding.reason == reason)
  }

  /// What the rule counts: how many, and the money per currency.
  struct Watched {
    var count = 0
    var sums: [Currency: Int64] = [:]
  }

  /// The count and money of what the rule watches.
  func watched(findings: [Finding], tieOut: TieOut) -> Watched {
    var w = Watched()
    switch target {
    case .findings:
      for finding in findings where watches(finding) {
        w.count += 1
        if let currency = finding.currency, let amount = finding.amountMinor {
          w.sums[currency, default: 0] += amount
        }
      }
    case .tieOutCells(let status):
      for cell in tieOut.cells where cell.status == status {
        w.count += 1
        w.sums[cell.currency, default: 0] += cell.grossDiffMinor.magnitudeOrMax
      }
    case .tieOutOrders(let status):
      for order in tieOut.orders where order.status == status {
        w.count += 1
        w.sums[order.currency, default: 0] += order.chargeDifferenceMinor
      }
    }
    return w
  }

  /// `findings`, `cells` or `orders`; and what their money is called.
  var words: (noun: String, money: String) {
    switch target {
    case .findings: return ("findings", "at stake")
    case .tieOutCells: return ("cells", "gross difference")
    case .tieOutOrders: return ("orders", "charge difference")
    }
  }

  /// Every limit the findings exceed, in the order count, per-currency amounts (by code), reporting amount.
  package func breaches(_ findings: [Finding], fx: SummaryFX?) -> [AlertBreach] {
    breaches(findings: findings, tieOut: TieOut(), fx: fx)
  }

  /// Every limit the findings or the tie-out exceed, in the order count, per-currency amounts (by code),
  /// reporting amount.
  package func breaches(findings: [Finding], tieOut: TieOut, fx: SummaryFX?) -> [AlertBreach] {
    let w = watched(findings: findings, tieOut: tieOut)
    let (noun, what) = words
    var out: [AlertBreach] = []
    if let maxCount, Int64(w.count) > maxCount {
      out.append(AlertBreach(rule: name, text: "\(name): \(w.count) \(noun) > maxCount \(maxCount)"))
    }
    for (currency, limit) in maxAmount.sorted(by: { $0.key < $1.key }) {
      let sum = w.sums[currency] ?? 0
      if sum > limit {
        out.append(
          AlertBreach(
            rule: name,
            text:
              "\(name): \(Money(minor: sum, currency: currency)) \(what) > maxAmount \(Money(minor: limit, currency: currency))"
          ))
      }
    }
    if let limit = maxAmountReporting, let fx, let breach = reportingBreach(w.sums, limit: limit, fx: fx) {
      out.append(breach)
    }
    return out
  }

  /// The breach of `maxAmountMinor`, if the sums converted exceed it.
  func reportingBreach(_ sums: [Currency: Int64], limit: Int64, fx: SummaryFX) -> AlertBreach? {
    var total: Int64 = 0
    var unconverted: [Currency] = []
    for (currency, sum) in sums.sorted(by: { $0.key < $1.key }) {
      if let converted = fx.convert(Money(minor: sum, currency: currency)) {
        total += converted
      } else {
        unconverted.append(currency)
      }
    }
    guard total > limit else { return nil }
    let note = unconverted.isEmpty ? "" : " (no rate for \(unconverted.map(\.code).joined(separator: ", ")))"
    let reporting = fx.reportingCurrency
    return AlertBreach(
      rule: name,
      text:
        "\(name): \(Money(minor: total, currency: reporting)) \(words.money) (\(fx.label))\(note) > maxAmountMinor \(Money(minor: limit, currency: reporting))"
    )
  }

  /// Every breach of every rule, rules in the order given.
  package static func breaches(_ rules: [AlertRule], findings: [Finding], fx: SummaryFX?) -> [AlertBreach] {
    breaches(rules, findings: findings, tieOut: TieOut(), fx: fx)
  }

  /// Every breach of every rule on the findings and the tie-out, rules in the order given.
  package static func breaches(
    _ rules: [AlertRule], findings: [Finding], tieOut: TieOut, fx: SummaryFX?
  ) -> [AlertBreach] {
    rules.flatMap { $0.breaches(findings: findings, tieOut: tieOut, fx: fx) }
  }
}

extension Int64 {
  /// |self|, or `Int64.max` for `Int64.min` (whose magnitude has no Int64).
  var magnitudeOrMax: Int64 { self == .min ? .max : Swift.abs(self) }
}

extension TieOutOrder {
  /// |earnings `Charge` − sales `Item Price`|: the money a Play order's status is about.
  package var chargeDifferenceMinor: Int64 {
    let (difference, overflow) = earningsChargeMinor.subtractingReportingOverflow(salesItemMinor)
    return overflow ? .max : difference.magnitudeOrMax
  }

  /// |actual Google fee − the fee schedule's estimate|.
  package var feeDifferenceMinor: Int64 {
    let (difference, overflow) = actualFeeMinor.subtractingReportingOverflow(estimatedFeeMinor)
    return overflow ? .max : difference.magnitudeOrMax
  }
}
