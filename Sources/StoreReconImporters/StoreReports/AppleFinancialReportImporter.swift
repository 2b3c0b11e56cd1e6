package import StoreReconCore
package import StoreReconIO

/// The detail file of Apple's Financial report (Payments and Financial Reports, one fiscal month of
/// one region), tab-separated without quoting, with a `Total_Rows` / `Total_Amount` / `Total_Units`
/// trailer; reference §2.5.
///
/// Columns are found by name (any order, case-insensitive). Required: `Start Date`, `End Date`,
/// `Quantity`, `Partner Share`, `Extended Partner Share`, `Partner Share Currency`, `Sales or Return`
/// (or `Sale or Return`), `Country Of Sale`, `Customer Price`, `Customer Currency`, and a product id
/// from `ISRC/ISBN` or, where that is blank or absent, `Vendor Identifier`; optional
/// `Product Type Identifier`. A row whose `Extended Partner Share` is not `Quantity × Partner Share`
/// is rejected.
///
/// The trailer (a line whose first cell starts with `Total_`) is checked, not read as rows, against
/// the detail rows since the previous trailer: `Total_Rows` = detail rows read (accepted or not),
/// `Total_Units` = Σ `Quantity` and `Total_Amount` = Σ `Extended Partner Share` of the accepted rows.
/// A matching trailer line is not counted; a mismatching one is rejected at its line with both
/// numbers. `Total_Amount` is not checked when the rows have several Partner Share Currencies (a sum
/// across currencies means nothing); a repeated header line is passed over.
package struct AppleFinancialReportImporter {
  /// Creates the importer.
  package init() {}

  struct Columns {
    var start = 0, end = 0, quantity = 0, share = 0, extended = 0, shareCurrency = 0, salesOrReturn = 0
    var country = 0, customerPrice = 0, customerCurrency = 0
    var isrc = -1, vendorId = -1, productType = -1

    init(_ csv: CSVReader) throws(InputError) {
      var header = StoreReportReader.Header(csv)
      start = header.find("Start Date")
      end = header.find("End Date")
      quantity = header.find("Quantity")
      share = header.find("Partner Share")
      extended = header.find("Extended Partner Share")
      shareCurrency = header.find("Partner Share Currency")
      salesOrReturn = header.find("Sales or Return", "Sale or Return")
      country = header.find("Country Of Sale")
      customerPrice = header.find("Customer Price")
      customerCurrency = header.find("Customer Currency")
      isrc = header.find("ISRC/ISBN", required: false)
      vendorId = header.find("Vendor Identifier", required: false)
      if isrc < 0 && vendorId < 0 { header.missing.append("ISRC/ISBN (or Vendor Identifier)") }
      productType = header.find("Product Type Identifier", required: false)
      try header.check()
    }
  }

  /// Reads one Financial report detail file, appending its rows to `rows.appleFinancial`.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows
  ) throws(InputError) -> InputCounts {
    var complete = true
    return try read(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects, into: &rows,
      complete: &complete)
  }

  /// Reads one Financial report detail file as ``read(path:displayName:fileIndex:rejects:into:)`` does;
  /// `complete` says whether it ends with its trailer (a `Total_Rows` line after its last row). A file
  /// cut before it adds no row: its month is not settled from a part (docs/tieout.md#a-report-that-shrinks-to-nothing).
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows, complete: inout Bool
  ) throws(InputError) -> InputCounts {
    let first = rows.appleFinancial.count
    let csv = try CSVReader(path: path, displayName: displayName, separator: StoreReportReader.tab)
    let columns = try Columns(csv)
    let headerFirst = CSVReader.key(csv.header.first ?? "")
    var totals = FinancialTotals()
    let counts = try StoreReportReader.forEachRecord(
      csv, displayName: displayName, fileIndex: fileIndex, rejects: rejects
    ) { (cells, origin) throws(RowRejection) -> StoreReportReader.Outcome in
      if !cells.firstCellStartsWithDigit {
        let first = cells.firstCell
        if first.utf8.count > 6 && first.lowercased().hasPrefix("total_") {
          return try totals.check(cells, name: first)
        }
        if CSVReader.key(first) == headerFirst && cells.record.count == csv.header.count { return .notARow }
      }
      totals.startRow()
      try StoreReportReader.checkFieldCount(cells, csv)
      let row = try AppleFinancialReportImporter.row(cells, columns, origin)
      totals.add(row)
      rows.appleFinancial.append(row)
      return .accepted
    }
    complete = totals.sawRowsTotal
    if !complete { rows.appleFinancial.removeSubrange(first...) }
    return counts
  }

  /// Maps one detail row.
  static func row(_ cells: ReportCells, _ c: Columns, _ origin: Origin) throws(RowRejection)
    -> AppleFinancialRow
  {
    let shareCurrency = try cells.currency(c.shareCurrency, "Partner Share Currency")
    let customerCurrency = try cells.currency(c.customerCurrency, "Customer Currency")
    let product = cells.isBlank(c.isrc) ? cells.shared(c.vendorId) : cells.shared(c.isrc)
    guard !product.isEmpty else { throw RowRejection("missing ISRC/ISBN and Vendor Identifier") }
    let isReturn: Bool
    if cells.equals(c.salesOrReturn, "s") {
      isReturn = false
    } else if cells.equals(c.salesOrReturn, "r") {
      isReturn = true
    } else if cells.isBlank(c.salesOrReturn) {
      throw RowRejection("missing Sales or Return")
    } else {
      throw RowRejection("Sales or Return \(cells.quoted(c.salesOrReturn)) is not S or R")
    }
    let quantity = try cells.wholeNumber(c.quantity, "Quantity")
    let share = try cells.money(c.share, "Partner Share", shareCurrency)
    let extended = try cells.money(c.extended, "Extended Partner Share", shareCurrency)
    let (product2, overflow) = quantity.multipliedReportingOverflow(by: share)
    guard !overflow, product2 == extended else {
      throw RowRejection(
        "Extended Partner Share \(shareCurrency.format(extended)) is not Quantity \(quantity) × "
          + "Partner Share \(shareCurrency.format(share))"
          + (overflow ? "" : " (\(shareCurrency.format(product2)))"))
    }
    return AppleFinancialRow(
      startDay: try cells.usDate(c.start, "Start Date"), endDay: try cells.usDate(c.end, "End Date"),
      productId: product, productType: cells.shared(c.productType), quantity: quantity,
      partnerShareMinor: share, extendedPartnerShareMinor: extended, partnerShareCurrency: shareCurrency,
      isReturn: isReturn, country: try cells.country(c.country, "Country Of Sale"),
      customerPriceMinor: try cells.money(c.customerPrice, "Customer Price", customerCurrency),
      customerCurrency: customerCurrency, origin: origin)
  }
}

/// The running totals a Financial report's trailer is checked against: the detail rows since the
/// start of the file or the previous trailer.
struct FinancialTotals {
  var rows = 0
  var units: Int64 = 0
  var amount: Int64 = 0
  var currency: Currency?
  var mixedCurrencies = false
  /// Whether the last line was a trailer line: the next detail row starts a new section.
  var afterTrailer = false
  /// Whether this section's trailer has its `Total_Rows` line (a file cut before it is incomplete).
  var sawRowsTotal = false

  /// Counts a detail row read (before it is accepted or rejected).
  mutating func startRow() {
    if afterTrailer { self = FinancialTotals() }
    rows += 1
  }

  /// Adds an accepted row.
  mutating func add(_ row: AppleFinancialRow) {
    units &+= row.quantity
    amount &+= row.extendedPartnerShareMinor
    if let currency, currency != row.partnerShareCurrency { mixedCurrencies = true }
    if currency == nil { currency = row.partnerShareCurrency }
  }

  /// Checks one trailer line (`Total_Rows<TAB>n`, …): `notARow` when it matches.
  mutating func check(_ cells: ReportCells, name: String) throws(RowRejection) -> StoreReportReader.Outcome {
    afterTrailer = true
    switch name.lowercased() {
    case "total_rows":
      sawRowsTotal = true
      let stated = try cells.wholeNumber(1, name)
      guard stated == Int64(rows) else {
        throw RowRejection("\(name) says \(stated), but \(rows) detail rows were read")
      }
    case "total_units":
      let stated = try cells.wholeNumber(1, name)
      guard stated == units else {
        throw RowRejection("\(name) says \(stated), but the accepted rows' Quantity sums to \(units)")
      }
    case "total_amount":
      guard !mixedCurrencies else { return .notARow }
      let currency = self.currency ?? FinancialTotals.anyTwoDigit
      let stated = try cells.money(1, name, currency)
      guard stated == amount else {
        throw RowRejection(
          "\(name) says \(cells.text(1)), but the accepted rows' Extended Partner Share sums to "
            + "\(currency.format(amount))\(self.currency.map { " \($0.code)" } ?? "")")
      }
    default:
      throw RowRejection("unknown trailer line '\(RawText.truncated(name))'")
    }
    return .notARow
  }

  /// The scale a `Total_Amount` is read at before any row gave the currency (USD: two digits).
  static let anyTwoDigit = Currency.named("USD") ?? Currency.all[0]
}
