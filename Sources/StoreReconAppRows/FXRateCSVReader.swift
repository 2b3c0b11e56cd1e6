package import StoreReconCore
package import StoreReconIO

/// Reads the FX table from CSV: `date, currency, rate_to_reporting` (all required).
///
/// `date` is `YYYY-MM-DD` (the rate applies from that day until the currency's next row);
/// `currency` an ISO 4217 code with minor units; `rate_to_reporting` a positive decimal string
/// (`1.0845`, at most 12 digits after the point), kept exactly. A second row for the same currency
/// and date, or a rate other than 1 for the reporting currency itself, is rejected with its reason.
package struct FXRateCSVReader: AppRowReader {
  /// The table's columns, in order.
  package static let columns = ["date", "currency", "rate_to_reporting"]

  /// The reporting currency the rates convert into.
  package var reporting: Currency

  /// Creates a reader for rates into `reporting`.
  package init(reporting: Currency) { self.reporting = reporting }

  /// Reads one FX table CSV file.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (FXRate) -> Void
  ) throws(InputError) -> InputCounts {
    var seen = Set<String>()
    let reporting = self.reporting
    return try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: FXRateCSVReader.columns, emit: emit
    ) { (cells, origin) throws(RowRejection) -> FXRate in
      try FXRateCSVReader.row(cells, origin, reporting: reporting, seen: &seen)
    }
  }

  /// Reads an FX table streamed from `source` (CSV with a header row), with the same rules.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (FXRate) -> Void
  ) throws(InputError) -> InputCounts {
    var seen = Set<String>()
    let reporting = self.reporting
    return try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: FXRateCSVReader.columns, emit: emit
    ) { (cells, origin) throws(RowRejection) -> FXRate in
      try FXRateCSVReader.row(cells, origin, reporting: reporting, seen: &seen)
    }
  }

  /// One row's cells as an `FXRate`, or why the row is rejected.
  static func row(
    _ cells: AppRowCSV.Cells, _ origin: Origin, reporting: Currency, seen: inout Set<String>
  ) throws(RowRejection) -> FXRate {
    let dateText = try cells.required(0)
    guard let date = CivilDate.parse(dateText) else {
      throw RowRejection("date '\(RawText.truncated(dateText))' is not a date (YYYY-MM-DD)")
    }
    let code = try cells.required(1)
    guard let currency = Currency.named(code) else {
      throw RowRejection("unknown currency '\(RawText.truncated(code))'")
    }
    guard currency.minorUnits != nil else {
      throw RowRejection("currency \(currency.code) has no minor unit and cannot hold money")
    }
    let rateText = try cells.required(2)
    let rate: DecimalRate
    do throws(DecimalRate.ParseError) {
      rate = try DecimalRate.parse(rateText)
    } catch {
      throw RowRejection(error.description)
    }
    if currency == reporting && rate != .one {
      throw RowRejection("rate of the reporting currency \(currency.code) must be 1, found \(rate)")
    }
    guard seen.insert("\(date) \(currency.code)").inserted else {
      throw RowRejection("a second rate for \(currency.code) on \(date)")
    }
    return FXRate(date: date, currency: currency, rate: rate, origin: origin)
  }
}
