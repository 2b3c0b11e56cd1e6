package import StoreReconCore

extension ReportTables {
  /// The leading columns of `tieout.csv` (issue 11), then the proceeds currency and the free units.
  package static let tieOutHeader = [
    "store", "source", "day", "product_id", "country", "currency", "report_units", "ledger_units",
    "units_diff", "report_gross_minor", "ledger_gross_minor", "gross_diff_minor", "report_proceeds_minor",
    "ledger_proceeds_minor", "status", "detail", "proceeds_currency", "report_free_units",
    "ledger_free_units", "what_to_do", "docs", "case_key", "state", "first_seen", "age_days",
  ]

  /// The columns of `tieout_orders.csv`.
  package static let tieOutOrdersHeader = [
    "store", "order_id", "month", "product_id", "currency", "sales_item_minor", "earnings_charge_minor",
    "estimated_fee_minor", "actual_fee_minor", "status", "detail", "what_to_do", "docs", "case_key", "state",
    "first_seen", "age_days",
  ]

  /// `tieout.csv`: one row per tie-out cell, in the order given; `what_to_do` and `docs` (links from
  /// `docsBase`) are empty for `match`; then the cell's case (docs/cases.md), empty for `match`.
  package static func tieOutCSV(
    _ cells: [TieOutCell], docsBase: String = NextStep.defaultDocsBase, cases: [String: Case] = [:]
  ) -> [UInt8] {
    var csv = CSVWriter(header: tieOutHeader)
    for c in cells {
      let step = NextStep.of(c.status)
      let key = c.status == .match ? "" : CaseCandidate(c).key
      csv.row(
        [
          c.store.rawValue, c.source.rawValue, period(c), c.productId, c.country, c.currency.code,
          String(c.reportUnits), String(c.ledgerUnits), String(c.unitsDiff), String(c.reportGrossMinor),
          String(c.ledgerGrossMinor), String(c.grossDiffMinor), String(c.reportProceedsMinor),
          String(c.ledgerProceedsMinor), c.status.rawValue, c.detail, c.proceedsCurrency.code,
          String(c.reportFreeUnits), String(c.ledgerFreeUnits), step?.whatToDo ?? "",
          step?.link(base: docsBase) ?? "", key,
        ] + caseColumns(cases[key]))
    }
    return csv.bytes
  }

  /// `tieout_orders.csv`: one row per Google Play order of an earnings month, in the order given;
  /// `what_to_do` and `docs` are empty for `match`; then the order's case, empty for `match`.
  package static func tieOutOrdersCSV(
    _ orders: [TieOutOrder], docsBase: String = NextStep.defaultDocsBase, cases: [String: Case] = [:]
  ) -> [UInt8] {
    var csv = CSVWriter(header: tieOutOrdersHeader)
    for o in orders {
      let step = NextStep.of(o.status, store: o.store)
      let key = o.status == .match ? "" : CaseCandidate(o).key
      csv.row(
        [
          o.store.rawValue, o.orderId, monthText(o.month), o.productId, o.currency.code,
          String(o.salesItemMinor), String(o.earningsChargeMinor), String(o.estimatedFeeMinor),
          String(o.actualFeeMinor), o.status.rawValue, o.detail, step?.whatToDo ?? "",
          step?.link(base: docsBase) ?? "", key,
        ] + caseColumns(cases[key]))
    }
    return csv.bytes
  }

  /// A cell's period as the reports write it: the day (`2026-09-03`) of an Apple cell, the month
  /// (`2026-09`) of a Play earnings cell.
  package static func period(_ cell: TieOutCell) -> String {
    cell.source == .playEarnings ? monthText(cell.day) : cell.day.description
  }

  /// `2026-09`.
  package static func monthText(_ day: CivilDate) -> String { String(day.description.prefix(7)) }
}
