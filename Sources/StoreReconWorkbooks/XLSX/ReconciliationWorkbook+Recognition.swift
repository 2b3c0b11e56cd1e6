import StoreReconCore
import StoreReconReports

extension ReconciliationWorkbook {
  /// **Revenue recognition**: revenue_recognition.csv's rows (docs/reports.md#revenue_recognitioncsv); it
  /// prints its first rows only (the file beside the workbook has them all).
  static func writeRecognition(_ rows: [RecognitionRow], into workbook: XLSXWorkbook, rowLimit: Int)
    throws(XLSXError)
  {
    let header = [
      "store", "currency", "product_id", "month", "billed", "refunded", "recognized", "deferred_opening",
      "deferred_closing",
    ]
    let sheets = try workbook.writeTable(
      name: "Revenue recognition", header: header, rowCount: rows.count, rowLimit: rowLimit
    ) { i in
      let r = rows[i]
      let c = r.currency
      return [
        .text(r.store.rawValue), .text(c.code), .text(r.productId), .text(r.month.description),
        .money(minor: r.billedMinor, currency: c), .money(minor: r.refundedMinor, currency: c),
        .money(minor: r.recognizedMinor, currency: c), .money(minor: r.deferredOpeningMinor, currency: c),
        .money(minor: r.deferredClosingMinor, currency: c),
      ]
    }
    // Every row is in revenue_recognition.csv beside the workbook: print the first page only.
    try limitPrint(sheets, columns: header.count)
  }

  /// **Revenue waterfall**: per store, currency and billed month (rows), what is recognised of that
  /// month's charges in each month through T's month (columns; refunds reverse in their month).
  static func writeWaterfall(
    _ waterfall: [RecognitionSums.Flow: Int64], rows recognition: [RecognitionRow],
    into workbook: XLSXWorkbook,
    rowLimit: Int
  ) throws(XLSXError) {
    struct Line: Hashable, Comparable {
      var store: Store
      var currency: Currency
      var billedMonth: ReportMonth
      static func < (a: Line, b: Line) -> Bool {
        if a.store != b.store { return a.store < b.store }
        if a.currency != b.currency { return a.currency.code < b.currency.code }
        return a.billedMonth < b.billedMonth
      }
    }
    var amounts: [Line: [ReportMonth: Int64]] = [:]
    var billed: [Line: Int64] = [:]
    var months = Set<ReportMonth>()
    for (flow, amount) in waterfall {
      let line = Line(store: flow.store, currency: flow.currency, billedMonth: flow.billedMonth)
      amounts[line, default: [:]][flow.recognizedMonth] = amount
      months.insert(flow.recognizedMonth)
      months.insert(flow.billedMonth)
    }
    var overflow = false
    for r in recognition where r.billedMinor != 0 {
      let line = Line(store: r.store, currency: r.currency, billedMonth: r.month)
      billed[line, default: 0].add(r.billedMinor, overflow: &overflow)
      if amounts[line] == nil { amounts[line] = [:] }
      months.insert(r.month)
    }
    let lines = amounts.keys.sorted()
    let columns = months.sorted()
    let header = ["store", "currency", "billed_month", "billed"] + columns.map(\.description)
    _ = try workbook.writeTable(
      name: "Revenue waterfall", header: header, rowCount: lines.count, rowLimit: rowLimit
    ) { i in
      let line = lines[i]
      let c = line.currency
      let recognised = amounts[line] ?? [:]
      return [
        .text(line.store.rawValue), .text(c.code), .text(line.billedMonth.description),
        .money(minor: billed[line] ?? 0, currency: c),
      ] + columns.map { m in recognised[m].map { XLSXCell.money(minor: $0, currency: c) } ?? .empty }
    }
  }
}
