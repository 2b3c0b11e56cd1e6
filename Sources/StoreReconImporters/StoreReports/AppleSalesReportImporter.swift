package import StoreReconCore
package import StoreReconIO

/// Apple's Summary Sales report (Sales and Trends, daily, `S_D_<vendor>_<YYYYMMDD>.txt[.gz]`),
/// tab-separated without quoting; reference §2.1.
///
/// Columns are found by name (any order, case-insensitive; extra columns ignored). Required: `SKU`,
/// `Product Type Identifier`, `Units`, `Developer Proceeds`, `Begin Date`, `End Date`,
/// `Customer Currency`, `Country Code`, `Currency of Proceeds`, `Customer Price`; optional
/// `Proceeds Reason`, `Subscription`, `Period`. Prices are per unit, kept signed as written.
package struct AppleSalesReportImporter {
  /// Creates the importer.
  package init() {}

  struct Columns {
    var sku = 0, productType = 0, units = 0, proceeds = 0, begin = 0, end = 0
    var customerCurrency = 0, country = 0, proceedsCurrency = 0, customerPrice = 0
    var proceedsReason = -1, subscription = -1, period = -1

    init(_ csv: CSVReader) throws(InputError) {
      var header = StoreReportReader.Header(csv)
      sku = header.find("SKU")
      productType = header.find("Product Type Identifier")
      units = header.find("Units")
      proceeds = header.find("Developer Proceeds")
      begin = header.find("Begin Date")
      end = header.find("End Date")
      customerCurrency = header.find("Customer Currency")
      country = header.find("Country Code")
      proceedsCurrency = header.find("Currency of Proceeds")
      customerPrice = header.find("Customer Price")
      proceedsReason = header.find("Proceeds Reason", required: false)
      subscription = header.find("Subscription", required: false)
      period = header.find("Period", required: false)
      try header.check()
    }
  }

  /// Reads one Summary Sales report, appending its rows to `rows.appleSales`.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows
  ) throws(InputError) -> InputCounts {
    let csv = try CSVReader(path: path, displayName: displayName, separator: StoreReportReader.tab)
    let columns = try Columns(csv)
    return try StoreReportReader.forEachRecord(
      csv, displayName: displayName, fileIndex: fileIndex, rejects: rejects
    ) { (cells, origin) throws(RowRejection) -> StoreReportReader.Outcome in
      try StoreReportReader.checkFieldCount(cells, csv)
      rows.appleSales.append(try AppleSalesReportImporter.row(cells, columns, origin))
      return .accepted
    }
  }

  /// Maps one row.
  static func row(_ cells: ReportCells, _ c: Columns, _ origin: Origin) throws(RowRejection) -> AppleSalesRow
  {
    let customerCurrency = try cells.currency(c.customerCurrency, "Customer Currency")
    let proceedsCurrency = try cells.currency(c.proceedsCurrency, "Currency of Proceeds")
    var row = AppleSalesRow(
      day: try cells.usDate(c.begin, "Begin Date"), endDay: try cells.usDate(c.end, "End Date"),
      productId: try cells.requiredShared(c.sku, "SKU"),
      productType: try cells.requiredShared(c.productType, "Product Type Identifier"),
      units: try cells.wholeNumber(c.units, "Units"),
      customerPriceMinor: try cells.money(c.customerPrice, "Customer Price", customerCurrency),
      customerCurrency: customerCurrency,
      proceedsPerUnitMinor: try cells.money(c.proceeds, "Developer Proceeds", proceedsCurrency),
      proceedsCurrency: proceedsCurrency, country: try cells.country(c.country, "Country Code"),
      origin: origin)
    // Prices are per unit: the row's money is Units × price, bounded like any amount
    // (docs/inputs.md#amounts-beyond-the-bound).
    guard MoneyBound.product(row.units, row.customerPriceMinor) != nil else {
      throw tooLarge(row.units, "Customer Price", customerCurrency.format(row.customerPriceMinor))
    }
    guard MoneyBound.product(row.units, row.proceedsPerUnitMinor) != nil else {
      throw tooLarge(row.units, "Developer Proceeds", proceedsCurrency.format(row.proceedsPerUnitMinor))
    }
    guard row.endDay >= row.day else {
      throw RowRejection("End Date \(row.endDay) is before Begin Date \(row.day)")
    }
    row.proceedsReason = cells.shared(c.proceedsReason)
    row.subscription = cells.shared(c.subscription)
    row.period = cells.shared(c.period)
    return row
  }

  /// The rejection of a row whose Units × per-unit price is beyond the bound.
  static func tooLarge(_ units: Int64, _ name: String, _ price: String) -> RowRejection {
    RowRejection("Units \(units) × \(name) \(price) is too large: \(MoneyBound.words) (minor units)")
  }
}
