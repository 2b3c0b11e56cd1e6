/// One row of revenue_recognition.csv: a store × currency × product × month, with the deferred revenue
/// it opens and closes with (docs/reports.md#revenue_recognitioncsv).
///
/// `opening + billed − refunded − recognized = closing` on every row.
package struct RecognitionRow: Sendable, Equatable {
  package var store: Store
  package var currency: Currency
  package var productId: String
  package var month: ReportMonth
  package var billedMinor: Int64
  package var refundedMinor: Int64
  package var recognizedMinor: Int64
  /// Deferred at the month's start (the previous row's closing).
  package var deferredOpeningMinor: Int64
  /// Deferred at the month's end, or at T for T's month.
  package var deferredClosingMinor: Int64

  /// The rows of `sums`: for each store, currency and product, every month from its first cell to
  /// `last` (T's month) but those with nothing at all to show, sorted by store, currency, product and
  /// month. `overflow` is set when a deferred balance does not fit an `Int64`.
  package static func rows(_ sums: RecognitionSums, through last: ReportMonth, overflow: inout Bool)
    -> [RecognitionRow]
  {
    var rows: [RecognitionRow] = []
    let keys = sums.cells.keys.sorted()
    var k = 0
    while k < keys.count {
      let first = keys[k]
      var deferred: Int64 = 0
      var month = first.month
      while month <= last {
        var cell = first
        cell.month = month
        let a = sums.cells[cell] ?? RecognitionSums.Amounts()
        var closing = deferred
        closing.add(a.billed, overflow: &overflow)
        closing.subtract(a.refunded, overflow: &overflow)
        closing.subtract(a.recognized, overflow: &overflow)
        if deferred != 0 || a != RecognitionSums.Amounts() || closing != 0 {
          rows.append(
            RecognitionRow(
              store: first.store, currency: first.currency, productId: first.productId, month: month,
              billedMinor: a.billed, refundedMinor: a.refunded, recognizedMinor: a.recognized,
              deferredOpeningMinor: deferred, deferredClosingMinor: closing))
        }
        deferred = closing
        month = month.next
      }
      k += 1
      while k < keys.count && keys[k].store == first.store && keys[k].currency == first.currency
        && keys[k].productId == first.productId
      {
        k += 1
      }
    }
    return rows
  }

  /// The deferred revenue at T per currency: the closing balances of T's month's rows, summed, in
  /// currency code order (currencies whose balance is zero included).
  package static func deferredAtT(_ rows: [RecognitionRow], last: ReportMonth) -> [(Currency, Int64)] {
    var totals: [Currency: Int64] = [:]
    var overflow = false
    for r in rows where r.month == last {
      totals[r.currency, default: 0].add(r.deferredClosingMinor, overflow: &overflow)
    }
    return totals.sorted { $0.key.code < $1.key.code }.map { ($0.key, $0.value) }
  }
}
