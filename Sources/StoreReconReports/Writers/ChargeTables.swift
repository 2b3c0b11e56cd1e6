package import StoreReconCore

/// Renders charges.csv and revenue_recognition_import.csv (docs/reports.md#chargescsv).
package enum ChargeTables {
  /// The detail file every money total traces to.
  package static let fileName = "charges.csv"
  /// One row per charge for a revenue-recognition tool's import.
  package static let importFileName = "revenue_recognition_import.csv"

  /// The columns of charges.csv.
  package static let header = [
    "kind", "store", "chain_key", "transaction_id", "product_id", "currency", "at", "day", "month",
    "service_start", "service_end", "amount_minor", "proceeds_minor", "proceeds_source", "in_revenue",
    "in_recognition",
  ]

  /// `charges.csv`; `dayOf` gives an instant's report day.
  package static func csv(_ lines: [ChargeLine], dayOf: (Instant) -> CivilDate) -> [UInt8] {
    var csv = CSVWriter(header: header)
    for l in lines {
      let day = dayOf(l.at)
      csv.row([
        l.kind.rawValue, l.store.rawValue, l.chainKey, l.transactionId, l.productId, l.currency.code,
        l.at.description, day.description, ReportMonth(day).description, l.serviceStart?.description ?? "",
        l.serviceEnd?.description ?? "", String(l.amountMinor), l.proceedsMinor.map { String($0) } ?? "",
        l.proceedsSource?.rawValue ?? "", l.inRevenue ? "yes" : "no", l.inRecognition ? "yes" : "no",
      ])
    }
    return csv.bytes
  }

  /// The columns of revenue_recognition_import.csv.
  package static let importHeader = [
    "source", "transaction_id", "service_period_start", "service_period_end", "amount_minor", "currency",
  ]

  /// `revenue_recognition_import.csv`: every charge with its service period, `source` `App Store` or
  /// `Google Play` (`Stripe` once Stripe is read).
  package static func importCSV(_ lines: [ChargeLine]) -> [UInt8] {
    var csv = CSVWriter(header: importHeader)
    for l in lines where l.kind == .charge {
      let source: String
      switch l.store {
      case .appStore: source = "App Store"
      case .play: source = "Google Play"
      case .stripe: source = "Stripe"
      }
      csv.row([
        source, l.transactionId, l.serviceStart?.description ?? "", l.serviceEnd?.description ?? "",
        String(l.amountMinor), l.currency.code,
      ])
    }
    return csv.bytes
  }
}
