import StoreReconCore
import StoreReconReports

extension ReconciliationWorkbook {
  /// One row of the **Revenue** sheet: revenue.csv's days summed per month, store, product and currency.
  struct RevenueMonth: Sendable, Equatable {
    /// `2026-11`.
    var month: String
    var store: Store
    var productId: String
    var currency: Currency
    var gross: Int64 = 0
    var tax: Int64 = 0
    var refunds: Int64 = 0
    var charges = 0
    var refundCount = 0
    var proceeds: Int64 = 0
    /// The least settled source of the month's rows (`estimated` when any day's is).
    var proceedsSource = ProceedsSource.settled
    /// Stripe's disputes: the money they took (less what won ones reinstated) and their fees.
    var disputed: Int64 = 0
    var disputeFees: Int64 = 0
  }

  /// The line under the Revenue sheet's table: where the daily detail is.
  static let revenueMonthsNote =
    "Per month, store, product and currency; revenue.csv holds the same per day (daily detail)."

  /// revenue.csv's rows summed per month, store, product and currency, in that order.
  static func revenueMonths(_ revenue: [RevenueRow], path: String) throws(XLSXError) -> [RevenueMonth] {
    struct Key: Hashable {
      var month: String
      var store: Store
      var productId: String
      var currency: Currency
    }
    var table: [Key: RevenueMonth] = [:]
    for r in revenue {
      let month = ReportTables.monthText(r.day)
      let key = Key(month: month, store: r.store, productId: r.productId, currency: r.currency)
      var m =
        table[key] ?? RevenueMonth(month: month, store: r.store, productId: r.productId, currency: r.currency)
      let what = "revenue \(month) \(r.store.rawValue) \(r.productId) \(r.currency.code)"
      m.gross = try add(m.gross, r.grossMinor, what, path: path)
      m.tax = try add(m.tax, r.taxMinor, what, path: path)
      m.refunds = try add(m.refunds, r.refundsMinor, what, path: path)
      m.proceeds = try add(m.proceeds, r.proceedsMinor, what, path: path)
      m.disputed = try add(m.disputed, r.disputedMinor, what, path: path)
      m.disputeFees = try add(m.disputeFees, r.disputeFeesMinor, what, path: path)
      m.charges += r.charges
      m.refundCount += r.refundCount
      m.proceedsSource = max(m.proceedsSource, r.proceedsSource)
      table[key] = m
    }
    return table.values.sorted {
      ($0.month, $0.store, $0.productId, $0.currency) < ($1.month, $1.store, $1.productId, $1.currency)
    }
  }

  /// **Revenue**: revenue.csv per month (a finance user's period) rather than per day, then a line
  /// saying revenue.csv keeps the daily detail.
  static func writeRevenue(_ revenue: [RevenueRow], into workbook: XLSXWorkbook, rowLimit: Int)
    throws(XLSXError)
  {
    let months = try revenueMonths(revenue, path: workbook.displayPath)
    let header = [
      "month", "store", "product_id", "currency", "gross", "tax", "refunds", "charges", "refund_count",
      "proceeds", "proceeds_source", "disputed", "dispute_fees",
    ]
    let sheets = try workbook.writeTable(
      name: "Revenue", header: header, rowCount: months.count, rowLimit: rowLimit
    ) { i in
      let m = months[i]
      return [
        .text(m.month), .text(m.store.rawValue), .text(m.productId), .text(m.currency.code),
        .money(minor: m.gross, currency: m.currency), .money(minor: m.tax, currency: m.currency),
        .money(minor: m.refunds, currency: m.currency), .integer(Int64(m.charges)),
        .integer(Int64(m.refundCount)), .money(minor: m.proceeds, currency: m.currency),
        .text(m.proceedsSource.rawValue), .money(minor: m.disputed, currency: m.currency),
        .money(minor: m.disputeFees, currency: m.currency),
      ]
    }
    if let last = sheets.last {
      let row = months.isEmpty ? 1 : (months.count - 1) % max(1, rowLimit - 1) + 2
      try last.write(.text(revenueMonthsNote), row: row, column: 0, fitting: false)
    }
  }
}
