import StoreReconCore
import StoreReconReports

extension ReconciliationWorkbook {
  /// The Tie-out sheet's columns: tieout.csv's, money without `_minor`, and the proceeds currency
  /// before the report's proceeds (which are in it).
  static let tieOutHeader = [
    "store", "source", "day", "product_id", "country", "currency", "report_units", "ledger_units",
    "units_diff", "report_gross", "ledger_gross", "gross_diff", "proceeds_currency", "report_proceeds",
    "ledger_proceeds", "status", "detail", "report_free_units", "ledger_free_units", "what_to_do", "docs",
  ]

  /// The Tie-out orders sheet's columns: tieout_orders.csv's, money without `_minor`.
  static let tieOutOrdersHeader = [
    "store", "order_id", "month", "product_id", "currency", "sales_item", "earnings_charge",
    "estimated_fee", "actual_fee", "status", "detail", "what_to_do", "docs",
  ]

  /// The line a tie-out sheet shows under its header when there is no row.
  static let noTieOutNote =
    "no store report was configured (appStore.salesReports, play.earnings): nothing to tie out"
  static let noOrdersNote = "no Google Play order: no earnings report (play.earnings) was read"

  /// Row indices with every status other than `match` first, then the matches, each in the order given.
  static func differencesFirst<Row>(_ rows: [Row], isMatch: (Row) -> Bool) -> [Int] {
    rows.indices.filter { !isMatch(rows[$0]) } + rows.indices.filter { isMatch(rows[$0]) }
  }

  /// **Tie-out**: one row per cell, differences first; money in each currency's format; Apple days
  /// as dates, Play earnings months as `YYYY-MM`.
  static func writeTieOut(
    _ cells: [TieOutCell], into workbook: XLSXWorkbook, rowLimit: Int,
    docsBase: String = NextStep.defaultDocsBase
  ) throws(XLSXError) {
    let order = differencesFirst(cells) { $0.status == .match }
    let sheets = try workbook.writeTable(
      name: "Tie-out", header: tieOutHeader, rowCount: order.count, rowLimit: rowLimit, wide: [16, 19]
    ) { i in
      let c = cells[order[i]]
      let day: XLSXCell =
        c.source == .playEarnings ? .text(ReportTables.monthText(c.day)) : date(c.day)
      return [
        .text(c.store.rawValue), .text(c.source.rawValue), day, .text(c.productId), .text(c.country),
        .text(c.currency.code), .integer(c.reportUnits), .integer(c.ledgerUnits), .integer(c.unitsDiff),
        .money(minor: c.reportGrossMinor, currency: c.currency),
        .money(minor: c.ledgerGrossMinor, currency: c.currency),
        .money(minor: c.grossDiffMinor, currency: c.currency), .text(c.proceedsCurrency.code),
        .money(minor: c.reportProceedsMinor, currency: c.proceedsCurrency),
        .money(minor: c.ledgerProceedsMinor, currency: c.currency), .text(c.status.rawValue),
        wrapped(c.detail), .integer(c.reportFreeUnits), .integer(c.ledgerFreeUnits),
      ] + nextStep(NextStep.of(c.status), docsBase: docsBase)
    }
    if cells.isEmpty { try sheets[0].write(.text(noTieOutNote), row: 1, column: 0, fitting: false) }
    // Printed: the differences (at least a page); the matches stay on screen and in tieout.csv.
    let differences = cells.count { $0.status != .match }
    if cells.count > max(differences, printedRows) {
      try limitPrint(sheets, rows: differences, columns: tieOutHeader.count)
    }
  }

  /// **Tie-out orders**: one row per Google Play order of an earnings month, differences first.
  static func writeTieOutOrders(
    _ orders: [TieOutOrder], into workbook: XLSXWorkbook, rowLimit: Int,
    docsBase: String = NextStep.defaultDocsBase
  ) throws(XLSXError) {
    // Only the orders with a difference: a big account has millions of matching orders a month, and
    // tieout_orders.csv lists every one.
    let order = orders.indices.filter { orders[$0].status != .match }
    let matching = orders.count - order.count
    let sheets = try workbook.writeTable(
      name: "Tie-out orders", header: tieOutOrdersHeader, rowCount: order.count, rowLimit: rowLimit,
      wide: [10, 11]
    ) { i in
      let o = orders[order[i]]
      return [
        .text(o.store.rawValue), .text(o.orderId), .text(ReportTables.monthText(o.month)),
        .text(o.productId), .text(o.currency.code), .money(minor: o.salesItemMinor, currency: o.currency),
        .money(minor: o.earningsChargeMinor, currency: o.currency),
        .money(minor: o.estimatedFeeMinor, currency: o.currency),
        .money(minor: o.actualFeeMinor, currency: o.currency), .text(o.status.rawValue),
        wrapped(o.detail),
      ] + nextStep(NextStep.of(o.status, store: o.store), docsBase: docsBase)
    }
    if orders.isEmpty {
      try sheets[0].write(.text(noOrdersNote), row: 1, column: 0, fitting: false)
    } else if let last = sheets.last {
      let row = order.isEmpty ? 1 : (order.count - 1) % max(1, rowLimit - 1) + 2
      try last.write(.text(matchingOrdersNote(matching)), row: row, column: 0, fitting: false)
    }
  }

  /// The line under the orders with a difference: how many orders match, and where they are listed.
  static func matchingOrdersNote(_ matching: Int) -> String {
    "\(matching) order\(matching == 1 ? "" : "s") match (not listed here): tieout_orders.csv lists every order"
  }
}
