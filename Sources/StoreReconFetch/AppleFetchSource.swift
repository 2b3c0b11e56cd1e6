import StoreReconCore
package import StoreReconSettings

/// The App Store: notification history, then transaction and refund history per customer, from the App
/// Store Server API; then the Summary Sales, Subscriber and Financial reports from the App Store Connect
/// API (with `fetch.apple.vendorNumber`). Writes `apple/notifications.jsonl`,
/// `apple/transactions/…` (a journal: ``FetchJournal``) and `apple/reports/…` (docs/fetch.md); its cursors are
/// ``AppleState``.
package final class AppleFetchSource: FetchSource {
  package let name = "apple"
  /// A customer whose latest transaction ended (or, without an end, was bought) less than this many days
  /// ago is asked for what changed on every fetch; an older one only when a notification names it.
  static let recheckDays: Int64 = 60
  /// Seconds between two journal files (and saves of the state) while customers are fetched.
  static let checkpointSeconds = 120.0
  /// Customers between two progress lines.
  static let progressEvery = 500

  /// Creates the source.
  package init() {}

  /// 20: every customer asks Get Transaction History (Apple: 50 a second) and Get Refund History (10 a
  /// second), so the refund lookups stay within theirs (docs/fetch.md#retries-limits-and-failures).
  package let defaultRequestsPerSecond = 20.0

  package func isConfigured(_ config: FetchConfig) -> Bool { config.apple != nil }

  package func run(_ context: FetchContext) throws(FetchError) -> FetchReport {
    guard let apple = context.config.apple else { return FetchReport(source: name) }
    guard let keyFile = apple.keyFile(environment: context.environment) else {
      throw FetchError(
        .config,
        "apple: no key file (fetch.apple.privateKeyFile, or the environment variable \(FetchConfig.Apple.keyFileVariable))"
      )
    }
    let tokens = AppleTokens(
      keyId: apple.keyId, issuerId: apple.issuerId, bundleId: apple.bundleId, keyFile: keyFile,
      clock: context.clock)
    var run = AppleRun(
      context: context, tokens: tokens,
      state: try context.state.load(AppleState.self, for: name) ?? AppleState())
    var report = FetchReport(source: name)
    let named = try run.notificationHistory(&report)
    try run.customers(named: named, &report)
    if let vendor = apple.vendorNumber {
      let connect = apple.connectKey(environment: context.environment)
      guard let connectFile = connect.file else {
        throw FetchError(.config, "apple: no key file for the App Store Connect reports")
      }
      let reportTokens = AppleTokens(
        keyId: connect.id, issuerId: apple.issuerId, bundleId: nil, keyFile: connectFile, clock: context.clock
      )
      try run.reports(vendor: vendor, tokens: reportTokens, &report)
    }
    return report
  }
}
