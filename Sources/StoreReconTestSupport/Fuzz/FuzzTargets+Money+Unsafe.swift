// Safety: `data` is libFuzzer's input, valid and unchanged for the length of the call and never kept
// beyond it; the target only reads it (copied into its own file before anything parses it).
// Preconditions: none beyond libFuzzer's (any length, any bytes).
import StoreReconCore
import StoreReconImporters

// The `money` target (docs/fuzzing.md#the-money-target): the stores' money reports read, then summed as
// a run sums them, so that an amount no `Int64` holds is a rejected row or a flagged sum, never a trap.
extension FuzzTargets {
  /// Rows of one report repeated this many times, by the second byte's low four bits: mostly once
  /// (fast), sometimes as often as it takes for rows at the per-row bound to overflow a sum (at most
  /// 10,000 rows in all, so that one input stays quick).
  static let moneyRepeats = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 7, 64, 1_000, 9_300]

  /// A money report (first byte: Apple Summary Sales, Apple Financial or Play earnings; second byte:
  /// how often its rows are repeated; the rest is the file) read, its counts checked (read = accepted
  /// + rejected), every accepted amount within the bound, and its rows summed: the copies check, the
  /// tie-out against an empty feed, the payout totals and the settled proceeds' look-ups.
  static func money(_ data: UnsafeBufferPointer<UInt8>) {
    guard data.count >= 2,
      let path = file("money.txt", UnsafeBufferPointer(rebasing: data.dropFirst(2)))
    else { return }
    var rows = StoreReportRows()
    let rejects = RejectList()
    let counts: InputCounts?
    switch data[0] % 3 {
    case 0:
      counts = try? AppleSalesReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    case 1:
      counts = try? AppleFinancialReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    default:
      counts = try? PlayEarningsReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    }
    if let counts, counts.read != counts.accepted + counts.rejected {
      fail("money", "read \(counts.read) != accepted \(counts.accepted) + rejected \(counts.rejected)")
    }
    if let why = moneyBeyondBound(rows) { fail("money", why) }
    let count = max(1, rows.appleSales.count + rows.appleFinancial.count + rows.playEarnings.count)
    let times = min(moneyRepeats[Int(data[1] & 15)], max(1, 10_000 / count))
    if times > 1 {
      rows.appleSales = Array(repeating: rows.appleSales, count: times).flatMap { $0 }
      rows.appleFinancial = Array(repeating: rows.appleFinancial, count: times).flatMap { $0 }
      rows.playEarnings = Array(repeating: rows.playEarnings, count: times).flatMap { $0 }
    }
    sumMoney(rows)
  }

  /// The first accepted amount beyond the per-row bound (docs/inputs.md#amounts-beyond-the-bound).
  static func moneyBeyondBound(_ rows: StoreReportRows) -> String? {
    for r in rows.appleSales {
      let amounts = [r.units, r.customerPriceMinor, r.proceedsPerUnitMinor]
      guard amounts.allSatisfy(MoneyBound.holds),
        MoneyBound.product(r.units, r.customerPriceMinor) != nil,
        MoneyBound.product(r.units, r.proceedsPerUnitMinor) != nil
      else { return "Summary Sales line \(r.origin.line) beyond the bound" }
    }
    for r in rows.appleFinancial {
      let amounts = [r.quantity, r.partnerShareMinor, r.extendedPartnerShareMinor, r.customerPriceMinor]
      guard amounts.allSatisfy(MoneyBound.holds) else {
        return "Financial line \(r.origin.line) beyond the bound"
      }
    }
    for r in rows.playEarnings {
      guard MoneyBound.holds(r.buyerAmountMinor), MoneyBound.holds(r.merchantAmountMinor) else {
        return "earnings line \(r.origin.line) beyond the bound"
      }
    }
    return nil
  }

  /// The sums a run forms from report rows (every report day over by T, each day in UTC).
  static func sumMoney(_ rows: StoreReportRows) {
    var rows = rows
    _ = StoreReportCopies.readOnce(&rows)
    var settings = TieOutSettings()
    settings.appleDays = TieOut.appleReportDays(rows).map {
      ReportDaySpan(day: $0, start: $0.startUTC, end: $0.next.startUTC)
    }
    let ledger = LedgerBuilder().build(asOf: Instant(ms: 4_102_444_800_000), catalog: Catalog())
    _ = TieOut.build(ledger: ledger, reports: rows, settings: settings)
    _ = PayoutTotal.payoutTotals(rows)
    _ = SettledProceeds(reports: rows, settings: settings)
  }
}

extension FuzzTargets {
  /// The `money` target's generated seeds: one small report of each kind, with ordinary amounts and
  /// with amounts at and past the bound (the fuzzer's dictionary, Fuzz/money-overflow.dict, adds more).
  static var moneySeeds: [[UInt8]] {
    let sales = [
      "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier",
      "Units", "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code",
      "Currency of Proceeds", "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier",
      "Subscription", "Period", "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason",
      "Preserved Pricing", "Client", "Order Type",
    ].joined(separator: "\t")
    func salesRow(_ units: String, _ proceeds: String, _ price: String) -> String {
      [
        "APPLE", "US", "pro.monthly", "Acme Inc", "Acme Pro", " ", "IAY", units, proceeds, "11/28/2026",
        "11/28/2026", "USD", "US", "USD", "1234567890", price, " ", "acme.app", "Renewal", "1 Month",
        "Productivity", " ", "iPhone", "iOS", " ", " ", " ", " ",
      ].joined(separator: "\t")
    }
    let financial = [
      "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
      "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
      "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
      "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
      "Customer Price", "Customer Currency",
    ].joined(separator: "\t")
    func financialRow(_ quantity: String, _ share: String, _ extended: String) -> String {
      [
        "10/05/2026", "11/01/2026", "", "", "pro.monthly", quantity, share, extended, "USD", "S",
        "1234567890",
        "", "Acme Pro", "", "", "IAY", "", "US", "", "", "4.49", "USD",
      ].joined(separator: "\t")
    }
    let earnings =
      "Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,"
      + "Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,"
      + "Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency)"
    func earningsRow(_ type: String, _ amount: String) -> String {
      [
        "GPA.3352-0306-9721-14048", "\"Sep 3, 2026\"", "5:05:59 PM PDT", "", type, "", "\"Acme Pro\"",
        "com.acme.app", "subscription", "pro.monthly", "phone", "DE", "", "", "EUR", amount, "1.000000",
        "EUR",
        amount,
      ].joined(separator: ",")
    }
    let files: [(UInt8, [String])] = [
      (0, [sales, salesRow("1", "3.49", "4.99"), salesRow("-1", "3.49", "-4.99")]),
      (
        0,
        [
          sales, salesRow("9223372036854775807", "3.49", "4.99"),
          salesRow("3000000000", "1", "9999999999.99"),
        ]
      ),
      (
        1,
        [
          financial, financialRow("1", "3.15", "3.15"), "Total_Rows\t1", "Total_Amount\t3.15",
          "Total_Units\t1",
        ]
      ),
      (1, [financial, financialRow("1", "90000000000000000.00", "90000000000000000.00")]),
      (2, [earnings, earningsRow("Charge", "4.99"), earningsRow("Google fee", "-0.75")]),
      (2, [earnings, earningsRow("Charge", "92233720368547758.07"), earningsRow("Charge", "-0.01")]),
    ]
    return files.flatMap { choice, lines in
      [0, 15].map { [choice, $0] + Array(lines.joined(separator: "\n").utf8) }
    }
  }
}
