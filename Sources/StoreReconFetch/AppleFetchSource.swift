/// The App Store: transaction history, refund history and notification history from the App Store
/// Server API, and the Sales, Subscriber and Financial reports from the App Store Connect API.
package final class AppleFetchSource: FetchSource {
  package let name = "apple"

  /// Creates the source.
  package init() {}

  package func isConfigured(_ config: FetchConfig) -> Bool { config.apple != nil }

  package func run(_ context: FetchContext) throws(FetchError) -> FetchReport {
    FetchReport(source: name)
  }
}
