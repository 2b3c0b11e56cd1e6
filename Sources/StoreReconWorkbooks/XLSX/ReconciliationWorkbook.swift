package import StoreReconCore
package import StoreReconReports

/// `reconciliation.xlsx`: the run's reports as one workbook for finance.
///
/// Sheets, in order: **Summary**, **Tie-out** (the stores' own reports against the transaction feed,
/// differences first), **Tie-out orders** (Google Play orders, differences first), then one per table —
/// **Orphaned charges**, **Free entitlements**, **Duplicate claims**, **Revenue**, **Counts**, **Grants**,
/// **Rejects**, and **Revenue trend** (the data of the Summary sheet's chart) where there is revenue in
/// the last 30 days. Money cells are numbers in their
/// currency's own format with the currency code in the column before them; dates are Excel dates;
/// headers are bold and frozen with an autofilter; column widths fit the content. A table longer than
/// a sheet continues on `Revenue (2)`… The same content gives the same bytes.
package enum ReconciliationWorkbook {
  /// The file name beside the CSV reports.
  package static let fileName = ReportFiles.reconciliationWorkbook

  /// Everything the workbook shows (built by the run, in StoreReconReports).
  package typealias Content = WorkbookContent

  /// How the workbook is laid out on disk.
  package struct Options: Sendable {
    /// Rows per sheet, header included, before a table continues on its next sheet (Excel: 1,048,576).
    package var rowLimit = XLSXWorksheet.maxRows
    /// Above this many table rows the workbook is written in libxlsxwriter's constant-memory mode (one
    /// row per sheet in memory; strings inline instead of a shared-string table). By default always:
    /// measured on a 30,000-user realistic world (510,366 cells), three runs each, alternating, it wrote
    /// the workbook in 837–1,010 ms against 1,038–1,048 ms with the cell tree, the run's peak RSS was
    /// 126 MB against 165 MB, and the file 6 % larger (2,500,677 bytes against 2,353,183).
    package var constantMemoryAbove = 0

    /// Default options.
    package init() {}
  }

  /// The sheet of each finding kind.
  package static func sheetName(_ kind: Finding.Kind) -> String {
    switch kind {
    case .orphanedCharge: return "Orphaned charges"
    case .freeEntitlement: return "Free entitlements"
    case .duplicateClaim: return "Duplicate claims"
    case .uncreditedPurchase: return "Uncredited purchases"
    case .doubleCredit: return "Double credits"
    case .creditNotReversed: return "Credits not reversed"
    case .orphanCredit: return "Orphan credits"
    case .doubleBilling: return "Double billing"
    case .notificationUnprocessed: return "Notifications unprocessed"
    case .notificationNotApplied: return "Notifications not applied"
    case .notificationMissing: return "Notifications missing"
    }
  }

  /// Writes the workbook to `path` (through a temporary name and a rename).
  package static func write(_ content: Content, to path: String, options: Options = Options())
    throws(XLSXError)
  {
    let properties = XLSXProperties(title: "storerecon reconciliation \(content.date)", created: content.date)
    try XLSXWorkbook.write(
      to: path, properties: properties, constantMemory: content.tableRows > options.constantMemoryAbove
    ) { (workbook: XLSXWorkbook) throws(XLSXError) in
      let summary = try writeSummary(content, into: workbook)
      let docs = content.docsBase
      try writeTieOut(content.tieOut.cells, into: workbook, rowLimit: options.rowLimit, docsBase: docs)
      try writeTieOutOrders(content.tieOut.orders, into: workbook, rowLimit: options.rowLimit, docsBase: docs)
      try writeFindings(content.findings, into: workbook, rowLimit: options.rowLimit, docsBase: docs)
      try writeRevenue(content.revenue, into: workbook, rowLimit: options.rowLimit)
      if !content.recognition.isEmpty {
        try writeRecognition(content.recognition, into: workbook, rowLimit: options.rowLimit)
        try writeWaterfall(
          content.waterfall, rows: content.recognition, into: workbook, rowLimit: options.rowLimit)
      }
      if !content.payoutLines.isEmpty {
        try writePayouts(content.payoutLines, into: workbook, rowLimit: options.rowLimit)
      }
      try writeCounts(content.counts, into: workbook, rowLimit: options.rowLimit)
      try writeGrants(content.grants, into: workbook, rowLimit: options.rowLimit)
      try writeRejects(content.rejects, into: workbook, rowLimit: options.rowLimit)
      if let trend = content.revenueTrend { try writeTrend(trend, into: workbook, chartOn: summary) }
      if let trend = content.findingsTrend { try writeFindingsTrend(trend, into: workbook, chartOn: summary) }
    }
  }

  /// The columns of a findings sheet: `detail` and `what_to_do` whole, wrapped in wide columns, then
  /// the `docs` link (docs/reports.md#what-to-do-and-docs).
  static let findingsHeader = [
    "finding_key", "reason", "store", "chain_key", "user_id", "product_id", "currency", "amount", "since",
    "detail", "what_to_do", "docs",
  ]

  static func writeFindings(
    _ findings: [Finding], into workbook: XLSXWorkbook, rowLimit: Int,
    docsBase: String = NextStep.defaultDocsBase
  ) throws(XLSXError) {
    for kind in Finding.Kind.allCases {
      let rows = findings.indices.filter { findings[$0].kind == kind }
      try workbook.writeTable(
        name: sheetName(kind), header: findingsHeader, rowCount: rows.count, rowLimit: rowLimit,
        wide: [9, 10]
      ) { i in
        let f = findings[rows[i]]
        return [
          .text(f.key), .text(f.reason.rawValue), .text(f.store.rawValue), .text(f.chainKey), .text(f.userId),
          .text(f.productId), f.currency.map { .text($0.code) } ?? .empty, money(f.amountMinor, f.currency),
          f.since.map { since in CivilDate.parse(since).map(date) ?? .text(since) } ?? .empty,
          wrapped(f.detail),
        ] + nextStep(NextStep.of(f.reason, store: f.store), docsBase: docsBase)
      }
    }
  }

  /// A step's `what_to_do` (wrapped) and `docs` (link) cells; blank for none (a `match`).
  static func nextStep(_ step: NextStep?, docsBase: String) -> [XLSXCell] {
    guard let step else { return [.empty, .empty] }
    return [.wrapped(step.whatToDo), .link(step.link(base: docsBase))]
  }

  /// Long text whole (up to Excel's limit per cell), wrapped; blank when empty.
  static func wrapped(_ value: String) -> XLSXCell {
    value.isEmpty ? .empty : .wrapped(XLSXWorksheet.clipped(value))
  }

  static func writeCounts(_ counts: [CountsRow], into workbook: XLSXWorkbook, rowLimit: Int) throws(XLSXError)
  {
    let header = [
      "store", "product_id", "chains_paid_through", "entitlements_active", "difference", "report_paid_units",
      "detail",
    ]
    try workbook.writeTable(name: "Counts", header: header, rowCount: counts.count, rowLimit: rowLimit) { i in
      let r = counts[i]
      return [
        .text(r.store.rawValue), .text(r.productId), .integer(Int64(r.chainsPaidThrough)),
        .integer(Int64(r.entitlementsActive)), .integer(Int64(r.difference)),
        r.reportPaidUnits.map { .integer($0) } ?? .empty, text(r.detail),
      ]
    }
  }

  static func writeGrants(_ grants: [GrantRow], into workbook: XLSXWorkbook, rowLimit: Int) throws(XLSXError)
  {
    let header = ["source", "grant_id", "user_id", "product_id", "starts_at", "ends_at", "active", "reason"]
    let sheets = try workbook.writeTable(
      name: "Grants", header: header, rowCount: grants.count, rowLimit: rowLimit
    ) { i in
      let g = grants[i]
      return [
        .text(g.source), .text(g.grantId), .text(g.userId), .text(g.productId), instant(g.startsAt),
        instant(g.endsAt),
        .text(g.active ? "yes" : "no"), .text(XLSXWorksheet.clipped(g.reason)),
      ]
    }
    if grants.count > printedRows { try limitPrint(sheets, columns: header.count) }
  }

  static func writeRejects(_ rejects: [Reject], into workbook: XLSXWorkbook, rowLimit: Int) throws(XLSXError)
  {
    let sheets = try workbook.writeTable(
      name: "Rejects", header: ["input", "line", "reason", "raw"], rowCount: rejects.count, rowLimit: rowLimit
    ) { i in
      let r = rejects[i]
      return [
        .text(r.file), .integer(Int64(r.line)), .text(XLSXWorksheet.clipped(r.reason)),
        .text(XLSXWorksheet.clipped(r.raw)),
      ]
    }
    if rejects.count > printedRows { try limitPrint(sheets, columns: 4) }
  }

  /// A text cell (clipped to what a cell holds), or blank for empty text.
  static func text(_ value: String) -> XLSXCell {
    value.isEmpty ? .empty : .text(XLSXWorksheet.clipped(value))
  }

  /// A money cell, or blank where no amount or currency is known.
  static func money(_ minor: Int64?, _ currency: Currency?) -> XLSXCell {
    guard let minor, let currency else { return .empty }
    return .money(minor: minor, currency: currency)
  }

  /// A date cell; the ISO text for a date outside Excel's years 1900–9999.
  static func date(_ value: CivilDate) -> XLSXCell {
    (1900...9999).contains(value.year) ? .date(value) : .text(value.description)
  }

  /// A date-time cell in UTC; blank for none; the ISO text for "no end" or an instant outside Excel's years.
  static func instant(_ value: Instant?) -> XLSXCell {
    guard let value else { return .empty }
    let year = CivilDate(daysSinceEpoch: value.ms.floorDivided(by: Instant.msPerDay).quotient).year
    return (1900...9999).contains(year) ? .instant(value) : .text(value.description)
  }
}
