import StoreReconCore
import StoreReconReports

extension PriceTestsWorkbook {
  /// The cumulative curve of every arm as a data block starting at (`row`, column A) — a bold title, a
  /// header `day, <arm>…, date`, then one row per day since enrolment (blank where an arm has nobody
  /// assigned yet) — and a native line chart of it, one series per arm, beside the block.
  /// Returns the first row below the block.
  @discardableResult
  static func writeCurve(_ readout: Readout, into sheet: XLSXWorksheet, row top: Int) throws(XLSXError) -> Int
  {
    let currency = readout.reportingCurrency
    let title = "Cumulative revenue per assigned user (\(currency.code)) by day since enrolment"
    try sheet.write(.bold(title), row: top, column: 0, fitting: false)
    guard let days = readout.arms.first?.series, !days.isEmpty else {
      try sheet.write(
        .text("The report date is before enrolment began: nothing to chart yet."), row: top + 1, column: 0,
        fitting: false)
      return top + 2
    }
    let header = top + 1
    let arms = readout.arms
    try sheet.writeRow([.bold("day")] + arms.map { .bold($0.arm.id) } + [.bold("date")], row: header)
    for (d, point) in days.enumerated() {
      var cells: [XLSXCell] = [.integer(Int64(point.dayIndex))]
      for arm in arms {
        let minor = d < arm.series.count ? arm.series[d].revenuePerAssignedMinor : nil
        cells.append(minor.map { .money(minor: $0, currency: currency) } ?? .empty)
      }
      cells.append(.date(point.day))
      try sheet.writeRow(cells, row: header + 1 + d)
    }

    let rows = (header + 1)...(header + days.count)
    let series = arms.enumerated().map { a, arm in
      XLSXLineChart.Series(
        name: arm.arm.id, categories: .column(0, rows: rows, sheet: sheet.name),
        values: .column(a + 1, rows: rows, sheet: sheet.name))
    }
    var chart = XLSXLineChart(
      title: "Cumulative revenue per assigned user (\(currency.code))",
      xAxisTitle: "days since enrolment began (day 0 = \(readout.experiment.enrollStart))",
      yAxisTitle: "\(currency.code) per assigned user", series: series)
    chart.yAxisNumberFormat = XLSXMoney.numberFormat(digits: currency.minorUnits ?? 0)
    try sheet.insert(chart, row: header, column: arms.count + 3)
    // The chart is about 18 rows tall: what follows starts below it.
    return max(header + days.count + 1, header + 19)
  }

  /// The forest plot: a bold title, a header `arm, low, difference, high, row on chart`, one row per
  /// challenger with its difference in revenue per assigned user to control and the 95 % bootstrap
  /// interval (in the reporting currency), a `zero` row (the line of no difference), and beside them a
  /// native scatter chart — each challenger's interval a horizontal line with circles at its low,
  /// estimate and high, at its own height (the three `row on chart` cells), the zero line dashed —
  /// which Excel and LibreOffice both draw. Nothing when no challenger has an interval. Returns the
  /// first free row below the block and chart.
  static func writeForest(_ readout: Readout, into sheet: XLSXWorksheet, row top: Int) throws(XLSXError)
    -> Int
  {
    let currency = readout.reportingCurrency
    let arms = readout.arms.dropFirst().filter { $0.difference?.bootstrap != nil }
    guard !arms.isEmpty else { return top }
    let title = "Revenue per assigned user minus control's (\(currency.code)), 95 % bootstrap interval"
    try sheet.write(.bold(title), row: top, column: 0, fitting: false)
    let header = top + 1
    try sheet.writeRow(["arm", "low", "difference", "high", "row on chart"].map { .bold($0) }, row: header)
    let n = arms.count
    for (i, arm) in arms.enumerated() {
      guard let d = arm.difference, let b = d.bootstrap else { continue }
      let cells: [XLSXCell] =
        [.text(arm.arm.id)]
        + [b.low, d.estimate, b.high].map { value in
          wholeMinor(value).map { .money(minor: $0, currency: currency) } ?? .empty
        }
        + Array(repeating: .integer(Int64(n - i)), count: 3)
      try sheet.writeRow(cells, row: header + 1 + i)
    }
    let zero = header + 1 + n
    try sheet.writeRow(
      [.text("zero")] + Array(repeating: .money(minor: 0, currency: currency), count: 3)
        + [0, Double(n + 1) / 2, Double(n + 1)].map { .number($0) }, row: zero)
    var series = arms.enumerated().map { i, arm in
      XLSXLineChart.Series(
        name: arm.arm.id, categories: .row(header + 1 + i, columns: 1...3, sheet: sheet.name),
        values: .row(header + 1 + i, columns: 4...6, sheet: sheet.name))
    }
    var line = XLSXLineChart.Series(
      name: "no difference", categories: .row(zero, columns: 1...3, sheet: sheet.name),
      values: .row(zero, columns: 4...6, sheet: sheet.name))
    line.reference = true
    series.append(line)
    var chart = XLSXLineChart(
      title: "Each arm vs control (\(currency.code) per assigned user)",
      xAxisTitle: "\(currency.code) per assigned user minus control's (dot: estimate; line: 95 % interval)",
      yAxisTitle: nil, series: series)
    chart.style = .intervals
    chart.width = 560
    chart.height = 200 + 40 * n
    chart.yAxisRange = 0...Double(n + 1)
    chart.xAxisNumberFormat = XLSXMoney.numberFormat(digits: currency.minorUnits ?? 0)
    try sheet.insert(chart, row: header, column: 8)
    // The chart is about (200 + 40 n) / 20 rows tall.
    return max(zero + 2, header + (200 + 40 * n) / 20 + 2)
  }
}
