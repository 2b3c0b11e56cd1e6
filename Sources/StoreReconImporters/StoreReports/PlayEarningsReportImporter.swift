package import StoreReconCore
package import StoreReconIO

/// Google Play's earnings report (`PlayApps_YYYYMM.csv`, plain or inside `earnings_YYYYMM_*.zip`),
/// comma-separated with quoted fields; reference §3.2.
///
/// Columns are found by name (any order, case-insensitive). Required: `Description` (the order id),
/// `Transaction Date` (`Sep 3, 2026`), `Transaction Type`, `Sku Id` (or `SKU ID`), `Buyer Country`,
/// `Buyer Currency`, `Amount (Buyer Currency)`, `Merchant Currency`, `Amount (Merchant Currency)`;
/// optional `Transaction Time` (`5:05:59 PM PDT`, `10:01:02 PDT`), `Refund Type`, `Product id` (or
/// `Package ID`), `Product Type`, `Currency Conversion Rate` (kept as text).
///
/// An `Adjustment` row may leave `Description`, `Sku Id` and `Buyer Country` blank. A time in a zone
/// other than PDT, PST, UTC or GMT leaves ``PlayEarningsRow/at`` `nil` (the row is kept).
package struct PlayEarningsReportImporter {
  /// Creates the importer.
  package init() {}

  struct Columns {
    var order = 0, date = 0, type = 0, sku = 0, country = 0, buyerCurrency = 0, buyerAmount = 0
    var merchantCurrency = 0, merchantAmount = 0
    var time = -1, refundType = -1, package = -1, productType = -1, rate = -1

    init(_ csv: CSVReader) throws(InputError) {
      var header = StoreReportReader.Header(csv)
      order = header.find("Description")
      date = header.find("Transaction Date")
      type = header.find("Transaction Type")
      sku = header.find("Sku Id", "SKU ID")
      country = header.find("Buyer Country")
      buyerCurrency = header.find("Buyer Currency")
      buyerAmount = header.find("Amount (Buyer Currency)")
      merchantCurrency = header.find("Merchant Currency")
      merchantAmount = header.find("Amount (Merchant Currency)")
      time = header.find("Transaction Time", required: false)
      refundType = header.find("Refund Type", required: false)
      package = header.find("Product id", "Package ID", required: false)
      productType = header.find("Product Type", required: false)
      rate = header.find("Currency Conversion Rate", required: false)
      try header.check()
    }
  }

  /// Reads one earnings report, appending its rows to `rows.playEarnings`.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows
  ) throws(InputError) -> InputCounts {
    let (source, entry) = try InputBytes.openNamingEntry(path: path, displayName: displayName)
    let csv = try CSVReader(
      lines: LineReader(source: source, displayName: displayName), displayName: displayName,
      separator: StoreReportReader.comma)
    let columns = try Columns(csv)
    let fileMonth =
      entry.flatMap { PlayEarningsDates.month(fileName: $0) }
      ?? PlayEarningsDates.month(fileName: path) ?? PlayEarningsDates.month(fileName: displayName)
    return try StoreReportReader.forEachRecord(
      csv, displayName: displayName, fileIndex: fileIndex, rejects: rejects
    ) { (cells, origin) throws(RowRejection) -> StoreReportReader.Outcome in
      try StoreReportReader.checkFieldCount(cells, csv)
      rows.playEarnings.append(try PlayEarningsReportImporter.row(cells, columns, fileMonth, origin))
      return .accepted
    }
  }

  /// Maps one row.
  static func row(_ cells: ReportCells, _ c: Columns, _ fileMonth: CivilDate?, _ origin: Origin)
    throws(RowRejection) -> PlayEarningsRow
  {
    let typeBytes = cells.bytes(c.type)
    guard !typeBytes.isEmpty else { throw RowRejection("missing Transaction Type") }
    guard let type = ReportCells.transactionType(typeBytes) else {
      throw RowRejection("unknown Transaction Type \(cells.quoted(c.type))")
    }
    let loose = type == .adjustment
    let day = try cells.playDate(c.date, "Transaction Date")
    let buyerCurrency = try cells.currency(c.buyerCurrency, "Buyer Currency")
    let merchantCurrency = try cells.currency(c.merchantCurrency, "Merchant Currency")
    var row = PlayEarningsRow(
      month: fileMonth ?? CivilDate(year: day.year, month: day.month, day: 1),
      order: try cells.orderKey(c.order, "Description", optional: loose), day: day, type: type,
      productId: loose ? cells.shared(c.sku) : try cells.requiredShared(c.sku, "Sku Id"),
      country: loose && cells.isBlank(c.country) ? "" : try cells.country(c.country, "Buyer Country"),
      buyerCurrency: buyerCurrency,
      buyerAmountMinor: try cells.money(c.buyerAmount, "Amount (Buyer Currency)", buyerCurrency),
      merchantCurrency: merchantCurrency,
      merchantAmountMinor: try cells.money(c.merchantAmount, "Amount (Merchant Currency)", merchantCurrency),
      origin: origin)
    row.at = try cells.playTime(c.time, "Transaction Time", on: day)
    row.refundType = cells.shared(c.refundType)
    row.packageName = cells.shared(c.package)
    row.productType = cells.shared(c.productType)
    row.conversionRate = cells.shared(c.rate)
    return row
  }

}

/// The earnings month a file name gives.
enum PlayEarningsDates {
  /// `PlayApps_YYYYMM…` or `earnings_YYYYMM…` in the last component of `fileName` (any case), as the
  /// month's first day; `nil` when the name has neither or the month does not exist.
  static func month(fileName: String) -> CivilDate? {
    let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
    let lower = Array(base.lowercased().utf8)
    for prefix in ["playapps_", "earnings_"] {
      let p = Array(prefix.utf8)
      guard lower.count >= p.count + 6, Array(lower[0..<p.count]) == p else { continue }
      let digits = lower[p.count..<(p.count + 6)]
      guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { continue }
      if lower.count > p.count + 6, lower[p.count + 6] >= 0x30, lower[p.count + 6] <= 0x39 { continue }
      let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
      let month = value % 100
      guard month >= 1 && month <= 12 else { continue }
      return CivilDate(year: value / 100, month: month, day: 1)
    }
    return nil
  }
}
