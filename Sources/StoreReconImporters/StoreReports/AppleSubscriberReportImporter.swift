package import StoreReconCore
package import StoreReconIO

/// Apple's Subscriber report (Sales and Trends, `SUBSCRIBER` `DETAILED`, daily: one row per charge or
/// refund), tab-separated without quoting; reference §2.3.
///
/// Columns are found by name (any order, case-insensitive; extra columns, such as the older
/// `Promotional Offer Name`, ignored). Required: `Event Date`, `Customer Price`, `Customer Currency`,
/// `Developer Proceeds`, `Proceeds Currency`, `Country`, `Subscriber ID`, `Units`; optional
/// `Subscription Name`, `Subscription Apple ID`, `Refund` (`Yes`, `No` or blank), `Purchase Date`,
/// `Proceeds Reason`.
package struct AppleSubscriberReportImporter {
  /// Creates the importer.
  package init() {}

  struct Columns {
    var eventDate = 0, customerPrice = 0, customerCurrency = 0, proceeds = 0, proceedsCurrency = 0
    var country = 0, subscriberId = 0, units = 0
    var name = -1, appleId = -1, refund = -1, purchaseDate = -1, proceedsReason = -1

    init(_ csv: CSVReader) throws(InputError) {
      var header = StoreReportReader.Header(csv)
      eventDate = header.find("Event Date")
      customerPrice = header.find("Customer Price")
      customerCurrency = header.find("Customer Currency")
      proceeds = header.find("Developer Proceeds")
      proceedsCurrency = header.find("Proceeds Currency")
      country = header.find("Country")
      subscriberId = header.find("Subscriber ID")
      units = header.find("Units")
      name = header.find("Subscription Name", required: false)
      appleId = header.find("Subscription Apple ID", required: false)
      refund = header.find("Refund", required: false)
      purchaseDate = header.find("Purchase Date", required: false)
      proceedsReason = header.find("Proceeds Reason", required: false)
      try header.check()
    }
  }

  /// Reads one Subscriber report, appending its rows to `rows.appleSubscriber`.
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
      rows.appleSubscriber.append(try AppleSubscriberReportImporter.row(cells, columns, origin))
      return .accepted
    }
  }

  /// Maps one row.
  static func row(_ cells: ReportCells, _ c: Columns, _ origin: Origin) throws(RowRejection)
    -> AppleSubscriberRow
  {
    let customerCurrency = try cells.currency(c.customerCurrency, "Customer Currency")
    let proceedsCurrency = try cells.currency(c.proceedsCurrency, "Proceeds Currency")
    let refund: Bool
    if cells.isBlank(c.refund) || cells.equals(c.refund, "no") {
      refund = false
    } else if cells.equals(c.refund, "yes") {
      refund = true
    } else {
      throw RowRejection("Refund \(cells.quoted(c.refund)) is not Yes or blank")
    }
    var row = AppleSubscriberRow(
      day: try cells.isoDate(c.eventDate, "Event Date"), subscriptionName: cells.shared(c.name),
      subscriptionAppleId: cells.shared(c.appleId),
      customerPriceMinor: try cells.money(c.customerPrice, "Customer Price", customerCurrency),
      customerCurrency: customerCurrency,
      proceedsMinor: try cells.money(c.proceeds, "Developer Proceeds", proceedsCurrency),
      proceedsCurrency: proceedsCurrency, country: try cells.country(c.country, "Country"),
      subscriberId: try cells.required(c.subscriberId, "Subscriber ID"), refund: refund,
      purchaseDay: cells.isBlank(c.purchaseDate) ? nil : try cells.isoDate(c.purchaseDate, "Purchase Date"),
      units: try cells.wholeNumber(c.units, "Units"), origin: origin)
    row.proceedsReason = cells.shared(c.proceedsReason)
    return row
  }
}
