package import StoreReconCore
package import StoreReconIO

/// Importer throughput on its own: one store export read into a fresh ledger builder, nothing else (no
/// checksum, no ledger build). For `storerecon-bench` and tests.
package enum ImportBenchmark {
  /// The store export formats.
  package enum Format: String, Sendable, CaseIterable {
    case appStore = "app_store", playSales = "play_sales", playSubscriptions = "play_subscriptions"
    case playVoided = "play_voided"
    /// The stores' own reports (read on one thread: they are far smaller than the feeds).
    case appleSales = "apple_sales", appleSubscriber = "apple_subscriber", appleFinancial = "apple_financial"
    case playEarnings = "play_earnings"

    /// The format a file name suggests (`.jsonl` App Store unless the name says subscriptions or voided,
    /// `.csv` a Play sales report; `S_D_…`, `*subscriber*`, `*financial*`, `PlayApps_…` / `earnings_…` the
    /// stores' reports).
    package static func guess(_ path: String) -> Format? {
      let name = path.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
      if name.hasPrefix("s_d_") { return .appleSales }
      if name.contains("subscriber") { return .appleSubscriber }
      if name.contains("financial") { return .appleFinancial }
      if name.hasPrefix("playapps_") || name.hasPrefix("earnings_") { return .playEarnings }
      if name.contains("subscription") { return .playSubscriptions }
      if name.contains("voided") { return .playVoided }
      if name.contains("salesreport") || name.hasSuffix(".csv") || name.hasSuffix(".zip") {
        return .playSales
      }
      if name.contains(".jsonl") { return .appStore }
      return nil
    }
  }

  /// Reads `path` as `format` on `threads` threads; returns the counts. With `merge`, the packed
  /// records also go into a ledger builder (chains found, keys pooled); without, they are only packed.
  package static func read(_ path: String, format: Format, threads: Int, merge: Bool = false)
    throws(InputError)
    -> InputCounts
  {
    let builder = LedgerBuilder()
    builder.discardsBatches = !merge
    let rejects = RejectList()
    switch format {
    case .appStore:
      return try AppStoreTransactionImporter().read(
        path: path, displayName: path, rejects: rejects, into: builder, threads: threads
      ).counts
    case .playSales:
      return try PlaySalesReportImporter().read(
        path: path, displayName: path, rejects: rejects, into: builder, threads: threads
      ).counts
    case .playSubscriptions:
      return try PlaySubscriptionImporter().read(
        path: path, displayName: path, rejects: rejects, into: builder, threads: threads
      ).counts
    case .playVoided:
      return try PlayVoidedPurchaseImporter().read(
        path: path, displayName: path, rejects: rejects, into: builder, threads: threads
      ).counts
    case .appleSales, .appleSubscriber, .appleFinancial, .playEarnings:
      return try readReport(path, format: format, rejects: rejects)
    }
  }

  /// Reads one of the stores' own reports into fresh rows.
  static func readReport(_ path: String, format: Format, rejects: any RejectSink) throws(InputError)
    -> InputCounts
  {
    var rows = StoreReportRows()
    switch format {
    case .appleSales:
      return try AppleSalesReportImporter().read(
        path: path, displayName: path, fileIndex: 0, rejects: rejects, into: &rows)
    case .appleSubscriber:
      return try AppleSubscriberReportImporter().read(
        path: path, displayName: path, fileIndex: 0, rejects: rejects, into: &rows)
    case .appleFinancial:
      return try AppleFinancialReportImporter().read(
        path: path, displayName: path, fileIndex: 0, rejects: rejects, into: &rows)
    default:
      return try PlayEarningsReportImporter().read(
        path: path, displayName: path, fileIndex: 0, rejects: rejects, into: &rows)
    }
  }
}
