package import StoreReconCore
package import StoreReconReports

/// `price-tests.xlsx`: the price-test readout as one Excel workbook for the product team, one sheet per
/// experiment.
///
/// Each sheet, top to bottom:
/// - the **arm table**: the experiment's `experiment_arms.csv` rows in the same order (reporting rows,
///   then currency rows), money as numbers in the currency's own format with the currency code in the
///   column before the money, rates and shares as percentages, counts as integers; a bold frozen header
///   with an autofilter and fitted column widths;
/// - the **readout in words**: the sample-ratio check, each arm's maturity, FX gaps, each arm's revenue
///   per assigned user against control with its bootstrap interval and Welch's t cross-check;
/// - the **forest plot**: each challenger's difference in revenue per assigned user to control with its
///   95 % bootstrap interval, as a small data block with a native chart beside it;
/// - the **curve**: cumulative reporting-currency revenue per assigned user by day since enrolment, as a
///   small data block (day in column A, one column per arm) with a native line chart beside it.
///
/// The same readouts give the same bytes.
package enum PriceTestsWorkbook {
  /// The file name beside the CSV reports.
  package static let fileName = ReportFiles.priceTestsWorkbook

  /// The arm table's columns: `experiment_arms.csv`'s, with the product manager's readout first (after
  /// the arm: verdict, relative lift over control with its interval, probability of being best), the
  /// money in major units (`gross` rather than `gross_minor`) and `currency` moved next to the money it
  /// is the currency of.
  package static let armHeader = [
    "experiment_id", "arm_id", "scope", "verdict", "relative_lift", "lift_low", "lift_high", "p_best",
    "assigned", "trials", "trial_conversions", "paid_conversions",
    "conversion_rate", "conversion_low", "conversion_high", "renewals", "refund_count", "currency", "gross",
    "refunded_amount", "proceeds", "revenue_per_assigned", "rpa_low", "rpa_high", "mature_share", "srm_p",
  ]

  /// The zero-based column of `currency` in the arm table (the money follows it).
  package static let currencyColumn = 17

  /// Writes the workbook for `readouts` (one sheet each, in order) to `path`, through a temporary name
  /// and a rename. `date` is the report date, pinned as the document's date.
  package static func write(_ readouts: [Readout], date: CivilDate, to path: String) throws(XLSXError) {
    let properties = XLSXProperties(title: "storerecon price tests \(date)", created: date)
    let names = sheetNames(readouts.map(\.experiment.id))
    try XLSXWorkbook.write(to: path, properties: properties) { (workbook: XLSXWorkbook) throws(XLSXError) in
      for (readout, name) in zip(readouts, names) {
        try writeSheet(readout, name: name, into: workbook)
      }
    }
  }

  /// One experiment's sheet: arm table, readout in words, curve and chart.
  static func writeSheet(_ readout: Readout, name: String, into workbook: XLSXWorkbook) throws(XLSXError) {
    let sheet = try workbook.addWorksheet(name)
    let rows = ExperimentTables.armRows(readout)
    try sheet.writeRow(armHeader.map { .bold($0) }, row: 0)
    for (i, entry) in rows.enumerated() {
      try sheet.writeRow(armCells(readout, entry.arm, entry.row), row: i + 1)
    }
    try sheet.freezeTopRows(1)
    try sheet.setAutofilter(firstRow: 0, firstColumn: 0, lastRow: rows.count, lastColumn: armHeader.count - 1)
    if !readout.arms.isEmpty, let best = armHeader.firstIndex(of: "p_best") {
      // P(best) of the reporting rows (the first, one per arm): green at 95 % or more, red at 5 % or
      // less, as in the e-mail.
      try sheet.tint(column: best, rows: 1...readout.arms.count, good: 0.95, bad: 0.05)
    }

    var row = rows.count + 2
    try sheet.write(.bold(titleLine(readout)), row: row, column: 0, fitting: false)
    row += 1
    for line in lines(readout) {
      try sheet.write(.text(line), row: row, column: 0, fitting: false)
      row += 1
    }
    // The forest plot right below the words (what a product manager looks at first), then the curve.
    let below = try writeForest(readout, into: sheet, row: row + 1)
    try writeCurve(readout, into: sheet, row: below)
    try sheet.fitColumnWidths()
  }

  /// The cells of one arm-table row, in ``armHeader`` order.
  static func armCells(_ readout: Readout, _ arm: ArmReadout, _ r: ArmRow) -> [XLSXCell] {
    let currency = r.currency
    func money(_ minor: Int64?) -> XLSXCell { minor.map { .money(minor: $0, currency: currency) } ?? .empty }
    let srm = readout.srm.flatMap { Double(ExperimentTables.pValue($0.pValue)) }
    let reporting = r.scope == .reporting
    let lift = arm.difference
    return [
      .text(readout.experiment.id), .text(arm.arm.id), .text(r.scope.rawValue),
      reporting ? .text(arm.verdict.rawValue) : .empty, percent(reporting ? lift?.relativeLift : nil),
      percent(reporting ? lift?.relativeLiftInterval?.low : nil),
      percent(reporting ? lift?.relativeLiftInterval?.high : nil),
      percent(reporting ? arm.probabilityBest : nil), .integer(Int64(r.assigned)),
      .integer(Int64(r.trials)), .integer(Int64(r.trialConversions)), .integer(Int64(r.paidConversions)),
      percent(r.conversionRate), percent(r.conversionInterval?.low), percent(r.conversionInterval?.high),
      .integer(Int64(r.renewals)), .integer(Int64(r.refunds)), .text(currency.code), money(r.grossMinor),
      money(r.refundsMinor), money(r.proceedsMinor), money(r.revenuePerAssignedMinor),
      money(wholeMinor(r.revenuePerAssignedInterval?.low)),
      money(wholeMinor(r.revenuePerAssignedInterval?.high)),
      percent(r.matureShare), srm.map { .number($0) } ?? .empty,
    ]
  }

  /// A share (0…1) as a percentage cell; blank when unknown.
  static func percent(_ value: Double?) -> XLSXCell {
    guard let value, value.isFinite else { return .empty }
    return .percent(value)
  }

  /// A statistic in minor units rounded half-even to a whole minor unit, as `experiment_arms.csv`
  /// writes it; `nil` when unknown or out of range.
  static func wholeMinor(_ value: Double?) -> Int64? {
    guard let value, value.isFinite, abs(value) < 9e18 else { return nil }
    return Int64(value.rounded(.toNearestOrEven))
  }

  /// Sheet names for experiment ids, in order: `[ ] : * ? / \` removed, no apostrophe at either end, at
  /// most 31 characters, unique ignoring case (a repeat becomes `name (2)`), never Excel's reserved
  /// `History`; an id with nothing left becomes `experiment`.
  package static func sheetNames(_ ids: [String]) -> [String] {
    let forbidden = Set("[]:*?/\\".unicodeScalars)
    var used: Set<String> = ["history"]
    var names: [String] = []
    for id in ids {
      let base = String(String.UnicodeScalarView(id.unicodeScalars.filter { !forbidden.contains($0) }))
      var name = fitted(base, limit: 31)
      var n = 2
      while used.contains(name.lowercased()) {
        let suffix = " (\(n))"
        name = fitted(base, limit: 31 - suffix.utf16.count) + suffix
        n += 1
      }
      used.insert(name.lowercased())
      names.append(name)
    }
    return names
  }

  /// `text` cut to at most `limit` UTF-16 units on a scalar boundary, without apostrophes at its ends;
  /// `experiment` when nothing is left.
  static func fitted(_ text: String, limit: Int) -> String {
    var kept = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      if used + scalar.utf16.count > limit { break }
      kept.append(scalar)
      used += scalar.utf16.count
    }
    var name = Substring(String(kept))
    while name.first == "'" { name = name.dropFirst() }
    while name.last == "'" { name = name.dropLast() }
    return name.isEmpty ? "experiment" : String(name)
  }
}
