import StoreReconCore
import StoreReconReports

extension RunConfig {
  /// Reads `"alerts"`: `{"free_entitlement": {"maxCount": 100, "maxAmount": {"USD": 50000}}, …}`.
  ///
  /// A key is a finding kind or `kind/reason`; a value sets `maxCount`, `maxAmount` (per currency, minor
  /// units) and, where the run has an FX table (`hasFX`), `maxAmountMinor` in the reporting currency.
  /// Rules come out sorted by key, so their breaches print in a stable order.
  static func parseAlerts(_ value: Any?, name: String, hasFX: Bool) throws(RunError) -> [AlertRule] {
    guard let value else { return [] }
    func fail(_ what: String) -> RunError { RunError(.config, "config \(name): alerts\(what)") }
    guard let alerts = value as? [String: Any] else { throw fail(" must be an object") }
    func limit(_ v: Any, _ key: String) throws(RunError) -> Int64 {
      guard !RunConfig.isJSONBool(v), let n = v as? Int, n >= 0 else {
        throw fail(".\(key) must be a non-negative whole number")
      }
      return Int64(n)
    }
    var rules: [AlertRule] = []
    for key in alerts.keys.sorted() {
      let parts = key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      guard parts.count <= 2, let kind = Finding.Kind(rawValue: parts[0]) else {
        throw fail(
          ": '\(key)' is not a finding kind (\(Finding.Kind.allCases.map(\.rawValue).joined(separator: ", "))) or kind/reason"
        )
      }
      var rule = AlertRule(kind: kind)
      if parts.count == 2 {
        guard let reason = Finding.Reason(rawValue: parts[1]), reason.kind == kind else {
          let reasons = Finding.Reason.allCases.filter { $0.kind == kind }.map(\.rawValue).joined(
            separator: ", ")
          throw fail(": '\(key)': \(kind.rawValue) has the reasons \(reasons)")
        }
        rule.reason = reason
      }
      guard let body = alerts[key] as? [String: Any] else { throw fail(".\(key) must be an object") }
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
      rules.append(rule)
    }
    return rules
  }
}
