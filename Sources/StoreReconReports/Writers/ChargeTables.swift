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

  /// The bytes of a piece of a file written in pieces (``csv(_:dayOf:piece:emit:)``): about a megabyte.
  package static let pieceBytes = 1 << 20

  /// `charges.csv`; `dayOf` gives an instant's report day.
  package static func csv(_ lines: [ChargeLine], dayOf: (Instant) -> CivilDate) -> [UInt8] {
    var all: [UInt8] = []
    csv(lines, dayOf: dayOf) { (piece: [UInt8]) throws(Never) in all += piece }
    return all
  }

  /// `charges.csv` in pieces of about `piece` bytes, each handed to `emit` as it is made, in order: the
  /// file is never whole in memory (it holds every charge and refund of the history: 546 MB at 300,000
  /// realistic users).
  package static func csv<E: Error>(
    _ lines: [ChargeLine], dayOf: (Instant) -> CivilDate, piece: Int = pieceBytes,
    emit: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var csv = CSVWriter(header: header)
    for l in lines {
      if csv.bytes.count >= piece { try emit(csv.takeBytes()) }
      let day = dayOf(l.at)
      csv.row([
        l.kind.rawValue, l.store.rawValue, l.chainKey, l.transactionId, l.productId, l.currency.code,
        l.at.description, day.description, ReportMonth(day).description, l.serviceStart?.description ?? "",
        l.serviceEnd?.description ?? "", String(l.amountMinor), l.proceedsMinor.map { String($0) } ?? "",
        l.proceedsSource?.rawValue ?? "", l.inRevenue ? "yes" : "no", l.inRecognition ? "yes" : "no",
      ])
    }
    try emit(csv.takeBytes())
  }

  /// The columns of revenue_recognition_import.csv.
  package static let importHeader = [
    "source", "transaction_id", "service_period_start", "service_period_end", "amount_minor", "currency",
  ]

  /// `revenue_recognition_import.csv`: every charge with its service period, `source` `App Store` or
  /// `Google Play` (`Stripe` once Stripe is read).
  package static func importCSV(_ lines: [ChargeLine]) -> [UInt8] {
    var all: [UInt8] = []
    importCSV(lines) { (piece: [UInt8]) throws(Never) in all += piece }
    return all
  }

  /// `revenue_recognition_import.csv` in pieces, as ``csv(_:dayOf:piece:emit:)`` writes charges.csv.
  package static func importCSV<E: Error>(
    _ lines: [ChargeLine], piece: Int = pieceBytes, emit: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var csv = CSVWriter(header: importHeader)
    for l in lines where l.kind == .charge {
      if csv.bytes.count >= piece { try emit(csv.takeBytes()) }
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
    try emit(csv.takeBytes())
  }
}
