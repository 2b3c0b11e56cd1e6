import StoreReconCore
import StoreReconReports

extension ReconciliationWorkbook {
  /// The Summary sheet: the status and its reason on the first row (with the lines behind it), report
  /// date and T, findings per reason with money at stake per currency, run history (or a note that
  /// there is none), revenue totals per store and currency, the tie-out and payouts, then the inputs
  /// with their counts. A count never stands beside a currency code.
  @discardableResult
  static func writeSummary(_ content: Content, into workbook: XLSXWorkbook) throws(XLSXError) -> XLSXWorksheet
  {
    let sheet = try workbook.addWorksheet("Summary")
    var row = 0
    func line(_ cells: [XLSXCell], fitting: Bool = true) throws(XLSXError) {
      try sheet.writeRow(cells, row: row, fitting: fitting)
      row += 1
    }
    func section(_ title: String, header: [String]) throws(XLSXError) {
      row += 1
      try line([.bold(title)], fitting: false)
      if !header.isEmpty { try line(header.map { .bold($0) }) }
    }

    if let status = content.status {
      // The cases and their money at stake first (docs/cases.md), then the reason and what is behind it.
      let (background, font) = statusColours(status.worst)
      try line(
        [
          .filled(status.label, background: background, font: font),
          .bold(status.casesPhrase.isEmpty ? status.reason : status.casesPhrase),
        ],
        fitting: false)
      if !status.casesPhrase.isEmpty { try line([.empty, .text(status.reason)], fitting: false) }
      for detail in status.details {
        try line([.empty, .text(XLSXWorksheet.clipped(detail))], fitting: false)
      }
      row += 1
    }
    try line([.bold("storerecon reconciliation")], fitting: false)
    try line([.text("report date"), date(content.date)])
    try line([.text("as of (UTC)"), instant(content.asOf)])
    try line([.text("time zone"), .text(content.timeZone)])
    try line([.text("version"), .text(StoreReconVersion.version)])

    try section("Findings", header: ["kind", "reason", "currency", "at stake", "findings"])
    for stake in try findingStakes(content.findings, path: workbook.displayPath) {
      try line([
        .text(stake.reason.kind.rawValue), .text(stake.reason.rawValue),
        stake.currency.map { .text($0.code) } ?? .empty, money(stake.minor, stake.currency),
        .integer(Int64(stake.count)),
      ])
    }
    try line([.bold("total"), .empty, .empty, .empty, .integer(Int64(content.findings.count))])

    try writeSummaryHistory(content, into: sheet, row: &row)

    let revenueHeader = ["store", "currency", "gross", "tax", "refunds", "charges", "refund_count"]
    for period in revenuePeriods(content) {
      try section("Revenue, \(period.label)", header: revenueHeader)
      let rows = content.revenue.filter { period.days.contains($0.day) }
      for total in try revenueTotals(rows, path: workbook.displayPath) {
        try line([
          .text(total.store.rawValue), .text(total.currency.code),
          .money(minor: total.gross, currency: total.currency),
          .money(minor: total.tax, currency: total.currency),
          .money(minor: total.refunds, currency: total.currency),
          .integer(Int64(total.charges)), .integer(Int64(total.refundCount)),
        ])
      }
      if rows.isEmpty { try line([.text("no revenue")]) }
    }
    try writeSummaryReporting(content, into: sheet, row: &row)
    try writeSummaryTieOut(content, into: sheet, row: &row)

    try section("Inputs", header: ["role", "path", "read", "accepted", "rejected", "error"])
    for input in content.inputs {
      let c = input.counts
      try line([
        .text(input.role), .text(input.path), .integer(Int64(c.read)), .integer(Int64(c.accepted)),
        .integer(Int64(c.rejected)), input.error.map { .text(XLSXWorksheet.clipped($0)) } ?? .empty,
      ])
    }
    try sheet.fitColumnWidths()
    return sheet
  }

  /// The status cell's fill and font (`0xRRGGBB`), as summary.html's status box: red for ALERT, amber
  /// for INCOMPLETE, orange for ATTENTION, green for OK.
  static func statusColours(_ worst: RunStatus.Word?) -> (background: UInt32, font: UInt32) {
    switch worst {
    case .alert: (0xFDE2E1, 0xD1242F)
    case .incomplete: (0xFFF4CE, 0x7D4E00)
    case .attention: (0xFFF1E5, 0xBC4C00)
    case nil: (0xE6F4EA, 0x1A7F37)
    }
  }

  /// A period of the Summary sheet's revenue: its label and its days.
  struct RevenuePeriod: Equatable {
    var label: String
    var days: ClosedRange<CivilDate>
  }

  /// The Summary sheet's revenue periods: the report date (`2026-11-29 (report date)`), its month to
  /// date (`November 2026 to date`), and — when revenue.csv holds days before that month — every day
  /// it holds (`2026-09-01 to 2026-11-29 (every day of revenue.csv)`).
  static func revenuePeriods(_ content: Content) -> [RevenuePeriod] {
    let date = content.date
    let monthStart = CivilDate(year: date.year, month: date.month, day: 1)
    var periods = [
      RevenuePeriod(label: "\(date) (report date)", days: date...date),
      RevenuePeriod(label: "\(monthName(date.month)) \(date.year) to date", days: monthStart...date),
    ]
    if let first = content.revenue.map(\.day).min(), first < monthStart {
      let last = max(content.revenue.map(\.day).max() ?? date, date)
      periods.append(
        RevenuePeriod(label: "\(first) to \(last) (every day of revenue.csv)", days: first...last))
    }
    return periods
  }

  /// `November` for 11.
  static func monthName(_ month: Int) -> String {
    let names = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
      "November", "December",
    ]
    return (1...12).contains(month) ? names[month - 1] : String(month)
  }

  /// The **Revenue trend** sheet — day, then one money column per store, in the trend's currency — and
  /// a native line chart of it on `summary` (right of the status and findings, where a reader looks
  /// first).
  static func writeTrend(_ trend: RevenueTrend, into workbook: XLSXWorkbook, chartOn summary: XLSXWorksheet)
    throws(XLSXError)
  {
    let sheet = try workbook.addWorksheet("Revenue trend")
    let currency = trend.currency
    try sheet.writeRow(
      [.bold("day")] + trend.stores.map { .bold($0.rawValue) } + [
        .empty, .text("gross per day, \(trend.note)"),
      ],
      row: 0, fitting: false)
    for (d, day) in trend.days.enumerated() {
      let cells = trend.grossMinor.map { XLSXCell.money(minor: $0[d], currency: currency) }
      try sheet.writeRow([date(day)] + cells, row: d + 1)
    }
    try sheet.freezeTopRows(1)
    try sheet.fitColumnWidths()
    let rows = 1...trend.days.count
    let series = trend.stores.enumerated().map { s, store in
      XLSXLineChart.Series(
        name: store.rawValue, categories: .column(0, rows: rows, sheet: sheet.name),
        values: .column(s + 1, rows: rows, sheet: sheet.name))
    }
    var chart = XLSXLineChart(
      title: "Gross revenue per day and store, last \(trend.days.count) days (\(currency.code))",
      yAxisTitle: currency.code, series: series)
    chart.xAxisNumberFormat = "mm-dd"
    chart.yAxisNumberFormat = XLSXMoney.numberFormat(digits: currency.minorUnits ?? 0)
    try summary.insert(chart, row: 1, column: 6)
  }

  /// The **Findings trend** sheet — run date, findings per kind, money at stake in the trend's currency —
  /// with a native line chart of the findings per kind on `summary` (below the revenue chart) and one of
  /// the money at stake on the sheet itself.
  static func writeFindingsTrend(
    _ trend: FindingsTrend, into workbook: XLSXWorkbook, chartOn summary: XLSXWorksheet
  ) throws(XLSXError) {
    let sheet = try workbook.addWorksheet("Findings trend")
    var header: [XLSXCell] = [.bold("run date")] + trend.kinds.map { .bold($0) } + [.bold("all findings")]
    if let currency = trend.currency { header.append(.bold("money at stake (\(currency.code))")) }
    try sheet.writeRow(header + [.empty, .text("per recorded run, \(trend.note)")], row: 0, fitting: false)
    for (d, day) in trend.days.enumerated() {
      var cells: [XLSXCell] = [date(day)] + trend.findings.map { .integer(Int64($0[d])) }
      cells.append(.integer(Int64(trend.total(d))))
      if let currency = trend.currency {
        cells.append(.money(minor: trend.atStakeMinor[d], currency: currency))
      }
      try sheet.writeRow(cells, row: d + 1)
    }
    try sheet.freezeTopRows(1)
    try sheet.fitColumnWidths()
    let rows = 1...trend.days.count
    let series = trend.kinds.enumerated().map { k, kind in
      XLSXLineChart.Series(
        name: kind, categories: .column(0, rows: rows, sheet: sheet.name),
        values: .column(k + 1, rows: rows, sheet: sheet.name))
    }
    var chart = XLSXLineChart(
      title: "Findings per recorded run and kind, last \(FindingsTrend.dayCount) days",
      yAxisTitle: "findings",
      series: series)
    chart.xAxisNumberFormat = "mm-dd"
    try summary.insert(chart, row: 20, column: 6)
    guard let currency = trend.currency else { return }
    let money = trend.kinds.count + 2
    var stake = XLSXLineChart(
      title: "Money at stake per recorded run (\(currency.code))", yAxisTitle: currency.code,
      series: [
        XLSXLineChart.Series(
          name: "money at stake", categories: .column(0, rows: rows, sheet: sheet.name),
          values: .column(money, rows: rows, sheet: sheet.name))
      ])
    stake.xAxisNumberFormat = "mm-dd"
    stake.yAxisNumberFormat = XLSXMoney.numberFormat(digits: currency.minorUnits ?? 0)
    try sheet.insert(stake, row: trend.days.count + 3, column: 1)
  }

  /// The Summary sheet's section in the reporting currency (with an FX table): money at stake, then per
  /// store and for all stores the gross and proceeds of the report date beside the day before, the
  /// change, and the gross month to date — the summary's "In USD" table as numbers.
  static func writeSummaryReporting(_ content: Content, into sheet: XLSXWorksheet, row: inout Int)
    throws(XLSXError)
  {
    guard let totals = content.reportingTotals else { return }
    func line(_ cells: [XLSXCell], fitting: Bool = true) throws(XLSXError) {
      try sheet.writeRow(cells, row: row, fitting: fitting)
      row += 1
    }
    let c = totals.currency
    let previous = CivilDate(daysSinceEpoch: content.date.daysSinceEpoch - 1)
    func money(_ minor: Int64) -> XLSXCell { .money(minor: minor, currency: c) }
    func change(_ now: Int64, _ before: Int64) -> XLSXCell {
      let (difference, overflow) = now.subtractingReportingOverflow(before)
      return overflow ? .empty : money(difference)
    }
    row += 1
    try line([.bold("In \(c.code) (\(totals.label))")], fitting: false)
    let which = content.history == nil ? "findings (no run history: all)" : "new findings"
    var over = "over \(totals.atStakeFindings) \(which)"
    if totals.unconvertedFindings > 0 {
      over += "; \(totals.unconvertedFindings) without an amount or rate are not in it"
    }
    try line([.text("money at stake"), money(totals.atStakeMinor), .text(over)], fitting: false)
    try line(
      [
        "store", "gross \(content.date)", "gross \(previous)", "change", "proceeds \(content.date)",
        "proceeds \(previous)", "change", "gross month to date",
      ].map { .bold($0) })
    for l in totals.lines {
      try line([
        .text(l.store?.rawValue ?? "all stores"), money(l.grossMinor), money(l.previousGrossMinor),
        change(l.grossMinor, l.previousGrossMinor), money(l.proceedsMinor), money(l.previousProceedsMinor),
        change(l.proceedsMinor, l.previousProceedsMinor), money(l.monthGrossMinor),
      ])
    }
    if totals.unconvertedRows > 0 {
      try line(
        [
          .text(
            "\(totals.unconvertedRows) revenue rows of these days have no rate into \(c.code) and are left out"
          )
        ],
        fitting: false)
    }
  }

  /// The Summary sheet's Run history section, from `row` on: new, still open and resolved per reason,
  /// or a note that there is no run history.
  static func writeSummaryHistory(_ content: Content, into sheet: XLSXWorksheet, row: inout Int)
    throws(XLSXError)
  {
    func line(_ cells: [XLSXCell], fitting: Bool = true) throws(XLSXError) {
      try sheet.writeRow(cells, row: row, fitting: fitting)
      row += 1
    }
    row += 1
    try line([.bold("Run history")], fitting: false)
    guard let history = content.history else {
      try line([.text("no run history (--no-history)")], fitting: false)
      return
    }
    try line([
      .text("previous run"), history.previousDate.map(date) ?? .text("none: this is the first recorded run"),
    ])
    try line(["kind", "reason", "new", "still open", "resolved"].map { .bold($0) })
    for reason in Finding.Reason.allCases {
      let counts = history.rows.first { $0.reason == reason }
      try line([
        .text(reason.kind.rawValue), .text(reason.rawValue), .integer(Int64(counts?.new ?? 0)),
        .integer(Int64(counts?.stillOpen ?? 0)), .integer(Int64(counts?.resolved ?? 0)),
      ])
    }
  }

  /// The Summary sheet's Tie-out section (cells and money per store, report and status; Play orders per
  /// status) and its Payouts section (per report and payout currency), from `row` on.
  static func writeSummaryTieOut(_ content: Content, into sheet: XLSXWorksheet, row: inout Int)
    throws(XLSXError)
  {
    func line(_ cells: [XLSXCell], fitting: Bool = true) throws(XLSXError) {
      try sheet.writeRow(cells, row: row, fitting: fitting)
      row += 1
    }
    row += 1
    try line([.bold("Tie-out")], fitting: false)
    let lines = ReportSummary.tieOutLines(content.tieOut)
    if lines.isEmpty { try line([.text(noTieOutNote)], fitting: false) }
    if !lines.isEmpty {
      try line(
        ["store", "source", "status", "currency", "|gross difference|", "report gross", "cells"].map {
          .bold($0)
        })
    }
    for l in lines {
      let head: [XLSXCell] = [.text(l.store.rawValue), .text(l.source.rawValue), .text(l.status.rawValue)]
      if l.grossDifference.isEmpty { try line(head + [.empty, .empty, .empty, .integer(Int64(l.cells))]) }
      for (diff, gross) in zip(l.grossDifference, l.reportGross) {
        try line(
          head + [
            .text(diff.currency.code), .money(minor: diff.minor, currency: diff.currency),
            .money(minor: gross.minor, currency: gross.currency), .integer(Int64(l.cells)),
          ])
      }
    }
    let orders = ReportSummary.tieOutOrderLines(content.tieOut)
    if !orders.isEmpty {
      try line(["store", "order status", "currency", "|earnings − sales|", "orders"].map { .bold($0) })
    }
    for o in orders {
      let head: [XLSXCell] = [.text(o.store.rawValue), .text(o.status.rawValue)]
      let count = XLSXCell.integer(Int64(o.orders))
      if o.chargeDifference.isEmpty { try line(head + [.empty, .empty, count]) }
      for diff in o.chargeDifference {
        try line(
          head + [.text(diff.currency.code), .money(minor: diff.minor, currency: diff.currency), count])
      }
    }
    row += 1
    try line([.bold("Payouts")], fitting: false)
    if content.payouts.isEmpty {
      try line(
        [.text("no settlement report (play.earnings, appStore.financialReports) was read")], fitting: false)
    } else {
      try line(["report", "currency", "payout", "rows"].map { .bold($0) })
    }
    for p in content.payouts {
      try line([
        .text(p.kind.rawValue), .text(p.currency.code), .money(minor: p.amountMinor, currency: p.currency),
        .integer(Int64(p.rows)),
      ])
    }
  }

  /// Findings and money at stake for one reason in one currency (`currency` `nil`: findings with no amount).
  struct Stake: Equatable {
    var reason: Finding.Reason
    var currency: Currency?
    var count: Int
    var minor: Int64?
  }

  /// Every reason in the order of docs/rules.md (with a zero row where it has no finding), split by currency.
  static func findingStakes(_ findings: [Finding], path: String) throws(XLSXError) -> [Stake] {
    struct Key: Hashable {
      var reason: Finding.Reason
      var currency: Currency?
    }
    var table: [Key: Stake] = [:]
    for f in findings {
      let currency = f.amountMinor == nil ? nil : f.currency
      let key = Key(reason: f.reason, currency: currency)
      var stake =
        table[key] ?? Stake(reason: f.reason, currency: currency, count: 0, minor: currency == nil ? nil : 0)
      stake.count += 1
      if let amount = f.amountMinor, let sum = stake.minor {
        stake.minor = try add(sum, amount, "money at stake for \(f.reason.rawValue)", path: path)
      }
      table[key] = stake
    }
    var out: [Stake] = []
    for reason in Finding.Reason.allCases {
      let rows = table.values.filter { $0.reason == reason }.sorted {
        ($0.currency?.code ?? "") < ($1.currency?.code ?? "")
      }
      out += rows.isEmpty ? [Stake(reason: reason, currency: nil, count: 0, minor: nil)] : rows
    }
    return out
  }

  /// Revenue of one store in one currency over all days and products.
  struct RevenueTotal: Equatable {
    var store: Store
    var currency: Currency
    var gross: Int64 = 0
    var tax: Int64 = 0
    var refunds: Int64 = 0
    var charges = 0
    var refundCount = 0
  }

  /// Revenue totals per store and currency, sorted by store then currency.
  static func revenueTotals(_ revenue: [RevenueRow], path: String) throws(XLSXError) -> [RevenueTotal] {
    struct Key: Hashable {
      var store: Store
      var currency: Currency
    }
    var table: [Key: RevenueTotal] = [:]
    for r in revenue {
      let key = Key(store: r.store, currency: r.currency)
      var total = table[key] ?? RevenueTotal(store: r.store, currency: r.currency)
      let what = "revenue total \(r.store.rawValue) \(r.currency.code)"
      total.gross = try add(total.gross, r.grossMinor, what, path: path)
      total.tax = try add(total.tax, r.taxMinor, what, path: path)
      total.refunds = try add(total.refunds, r.refundsMinor, what, path: path)
      total.charges += r.charges
      total.refundCount += r.refundCount
      table[key] = total
    }
    return table.values.sorted { ($0.store, $0.currency) < ($1.store, $1.currency) }
  }

  static func add(_ a: Int64, _ b: Int64, _ what: String, path: String) throws(XLSXError) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard !overflow else {
      throw XLSXError(path: path, operation: "Summary", reason: "\(what) overflows 64-bit minor units")
    }
    return sum
  }
}
