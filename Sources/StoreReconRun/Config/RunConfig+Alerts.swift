package import StoreReconCore
package import StoreReconReports

extension RunConfig {
  /// Reads `"alerts"`: `{"free_entitlement": {"maxCount": 100, "maxAmount": {"USD": 50000}}, …}`.
  ///
  /// A key is a finding kind, `kind/reason`, `tieout/<status>` (tie-out cells: `match`, `report_more`,
  /// `report_less`, `price_differs`) or `tieout_orders/<status>` (Play orders: `match`,
  /// `missing_in_earnings`, `missing_in_sales`, `amount_differs`, `fee_differs`, `refund_not_in_…`); a
  /// value sets `maxCount`, `maxAmount` (per currency, minor units) and, where the run has an FX table (`hasFX`),
  /// `maxAmountMinor` in the reporting currency. Rules come out sorted by key, so their breaches print in
  /// a stable order.
  package static func parseAlerts(_ value: Any?, name: String, hasFX: Bool) throws(RunError) -> [AlertRule] {
    guard let value else { return [] }
    func fail(_ what: String) -> RunError { RunError(.config, "config \(name): alerts\(what)") }
    guard let alerts = value as? [String: Any] else { throw fail(" must be an object") }
    var rules: [AlertRule] = []
    for key in alerts.keys.sorted() {
      var rule = AlertRule(target: try alertTarget(key, fail: fail))
      guard let body = alerts[key] as? [String: Any] else { throw fail(".\(key) must be an object") }
      try parseLimits(body, key: key, hasFX: hasFX, into: &rule, fail: fail)
      rules.append(rule)
    }
    return rules
  }

  /// What the alert key `key` watches.
  package static func alertTarget(_ key: String, fail: (String) -> RunError) throws(RunError)
    -> AlertRule.Target
  {
    let parts = key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    if parts[0] == AlertRule.tieOutPrefix || parts[0] == AlertRule.tieOutOrdersPrefix {
      let cells = parts[0] == AlertRule.tieOutPrefix
      let statuses =
        cells ? TieOutCell.Status.allCases.map(\.rawValue) : TieOutOrder.Status.allCases.map(\.rawValue)
      guard parts.count == 2 else {
        throw fail(": '\(key)' must be \(parts[0])/<status>, a status of \(statuses.joined(separator: ", "))")
      }
      if cells, let status = TieOutCell.Status(rawValue: parts[1]) { return .tieOutCells(status) }
      if !cells, let status = TieOutOrder.Status(rawValue: parts[1]) { return .tieOutOrders(status) }
      throw fail(
        ": '\(key)': '\(parts[1])' is not a \(parts[0]) status (\(statuses.joined(separator: ", ")))")
    }
    guard parts.count <= 2, let kind = Finding.Kind(rawValue: parts[0]) else {
      throw fail(
        ": '\(key)' is not a finding kind (\(Finding.Kind.allCases.map(\.rawValue).joined(separator: ", "))), kind/reason, tieout/<status> or tieout_orders/<status>"
      )
    }
    guard parts.count == 2 else { return .findings(kind, nil) }
    guard let reason = Finding.Reason(rawValue: parts[1]), reason.kind == kind else {
      let reasons = Finding.Reason.allCases.filter { $0.kind == kind }.map(\.rawValue).joined(
        separator: ", ")
      throw fail(": '\(key)': \(kind.rawValue) has the reasons \(reasons)")
    }
    return .findings(kind, reason)
  }

  /// Reads the thresholds of the alert `key` into `rule`; at least one must be set.
  package static func parseLimits(
    _ body: [String: Any], key: String, hasFX: Bool, into rule: inout AlertRule,
    fail: (String) -> RunError
  ) throws(RunError) {
    func limit(_ v: Any, _ key: String) throws(RunError) -> Int64 {
      guard !RunConfig.isJSONBool(v), let n = v as? Int, n >= 0 else {
        throw fail(".\(key) must be a non-negative whole number")
      }
      return Int64(n)
    }
    for field in body.keys.sorted() {
      guard let v = body[field] else { continue }
      switch field {
      case "maxCount":
        rule.maxCount = try limit(v, "\(key).maxCount")
      case "maxAmount":
        guard let amounts = v as? [String: Any] else {
          throw fail(
            ".\(key).maxAmount must be an object of currency → minor units, such as {\"USD\": 50000}")
        }
        for code in amounts.keys.sorted() {
          guard let currency = Currency.named(code), currency.minorUnits != nil, let amount = amounts[code]
          else {
            throw fail(".\(key).maxAmount: '\(code)' is not an ISO 4217 currency with minor units")
          }
          rule.maxAmount[currency] = try limit(amount, "\(key).maxAmount.\(code)")
        }
      case "maxAmountMinor":
        guard hasFX else {
          throw fail(
            ".\(key).maxAmountMinor needs an FX table: set reportingCurrency and fxRates in the config, or set maxAmount per currency, such as {\"USD\": 50000}"
          )
        }
        rule.maxAmountReporting = try limit(v, "\(key).maxAmountMinor")
      default:
        throw fail(".\(key).\(field) is not a threshold (maxCount, maxAmount, maxAmountMinor)")
      }
    }
    guard rule.maxCount != nil || !rule.maxAmount.isEmpty || rule.maxAmountReporting != nil else {
      throw fail(".\(key) sets no threshold (maxCount, maxAmount, maxAmountMinor)")
    }
  }
}
