import StoreReconCore

/// Writing the reports and the tie-out truth.
extension DemoStoreReports {
  /// Columns of an earnings report; the newest month names two of them `Package ID` and `SKU ID`
  /// (newer files), the others `Product id` and `Sku Id` (older files).
  static func earningsHeader(newer: Bool) -> String {
    [
      "Description", "Transaction Date", "Transaction Time", "Tax Type", "Transaction Type", "Refund Type",
      "Product Title", newer ? "Package ID" : "Product id", "Product Type", newer ? "SKU ID" : "Sku Id",
      "Hardware",
      "Buyer Country", "Buyer State", "Buyer Postal Code", "Buyer Currency", "Amount (Buyer Currency)",
      "Currency Conversion Rate", "Merchant Currency", "Amount (Merchant Currency)",
    ].joined(separator: ",")
  }

  /// Plants the differences, works out the truth from the rows as written, writes the reports and the
  /// truth files. Returns the truth; its ``DemoTieOutTruth/reportFiles`` are the reports' paths.
  func finish(into directory: String, ids: inout DemoIdentifiers) throws -> DemoTieOutTruth {
    try plantApple()
    var truth = DemoTieOutTruth()
    let appleCells = try appleTruth()
    truth.controls = chosenControls()
    var files = try writeApple(into: directory)
    let rows = try plantPlay(&ids)
    let play = try playTruth(rows)
    truth.cells = (appleCells + play.cells).sorted()
    truth.orders = (play.orders + stripeOrders).sorted()
    files += try writePlay(rows, into: directory)
    let summary = try writeAppleSummary(into: directory)
    files.append(summary.path)
    truth.payouts = summary.planted
    truth.reportFiles = files
    for (path, text) in [
      (DemoTieOutTruth.cellsPath, truth.cellsCSV()), (DemoTieOutTruth.ordersPath, truth.ordersCSV()),
      (DemoTieOutTruth.controlsPath, truth.controlsCSV()),
      (DemoTieOutTruth.payoutsPath, truth.payoutsCSV()),
    ] {
      let writer = try DemoFileWriter(directory: directory, relativePath: path)
      try writer.write(bytes: text.utf8)
      try writer.close()
    }
    return truth
  }

  /// Writes one earnings report per month that has rows, rows by time. Returns the paths.
  func writePlay(_ rows: [EarningsRow], into directory: String) throws -> [String] {
    var byMonth: [CivilDate: [EarningsRow]] = [:]
    for r in rows { byMonth[r.month, default: []].append(r) }
    let types = PlayEarningsRow.TransactionType.allCases
    var paths: [String] = []
    var line = DemoLine()
    for month in playMonths {
      guard var monthRows = byMonth[month] else { continue }
      monthRows.sort {
        ($0.at, $0.orderId, types.firstIndex(of: $0.type) ?? 0)
          < ($1.at, $1.orderId, types.firstIndex(of: $1.type) ?? 0)
      }
      let path = DemoStoreReports.earningsPath(month)
      let writer = try DemoFileWriter(directory: directory, relativePath: path)
      try writer.write(bytes: (DemoStoreReports.earningsHeader(newer: month == playMonths.last) + "\n").utf8)
      for r in monthRows {
        line.reset()
        earningsLine(r, into: &line)
        try writer.writeLine(line)
      }
      try writer.close()
      paths.append(path)
    }
    return paths
  }

  private func earningsLine(_ r: EarningsRow, into line: inout DemoLine) {
    let currency = r.country.currency
    let rate =
      DemoFX.rate(currency, month: r.month).map { Currency.render($0.mantissa, scale: $0.scale) } ?? ""
    let merchant = DemoFX.toReporting(r.amount, currency, at: r.at) ?? 0
    let refund = r.type == .chargeRefund || r.type == .googleFeeRefund
    let fields = [
      r.orderId, DemoPacific.earningsDate(r.at), DemoPacific.earningsTime(r.at), "", r.type.rawValue,
      refund ? "Full" : "", r.product.playTitle, "com.acme.app", r.product.playProductType, r.product.playSku,
      r.device, r.country.alpha2, "", "", currency.code, currency.format(r.amount), rate, DemoFX.reporting,
      Currency.render(merchant, scale: 2),
    ]
    for (i, field) in fields.enumerated() {
      if i > 0 { line.byte(0x2C) }
      line.csv(field)
    }
  }
}
