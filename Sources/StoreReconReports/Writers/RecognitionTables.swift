package import StoreReconCore

/// Renders revenue recognition as revenue_recognition.csv (docs/reports.md#revenue_recognitioncsv).
package enum RecognitionTables {
  /// The file name beside the other reports.
  package static let fileName = "revenue_recognition.csv"

  /// The columns of revenue_recognition.csv.
  package static let header = [
    "store", "currency", "product_id", "month", "billed_minor", "refunded_minor", "recognized_minor",
    "deferred_opening_minor", "deferred_closing_minor",
  ]

  /// `revenue_recognition.csv`: one row per store, currency, product and month.
  package static func csv(_ rows: [RecognitionRow]) -> [UInt8] {
    var csv = CSVWriter(header: header)
    for r in rows {
      csv.row([
        r.store.rawValue, r.currency.code, r.productId, r.month.description, String(r.billedMinor),
        String(r.refundedMinor), String(r.recognizedMinor), String(r.deferredOpeningMinor),
        String(r.deferredClosingMinor),
      ])
    }
    return csv.bytes
  }
}
