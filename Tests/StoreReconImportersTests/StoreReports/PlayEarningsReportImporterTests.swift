import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct PlayEarningsReportImporterTests {
  static let header = """
    Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,\
    Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,\
    Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency)
    """

  static func row(
    order: String = "GPA.3352-0306-9721-14048", date: String = "\"Sep 3, 2026\"",
    time: String = "5:05:59 PM PDT", type: String = "Charge", refundType: String = "",
    sku: String = "pro.monthly", country: String = "DE", buyerCurrency: String = "EUR",
    buyerAmount: String = "4.99", rate: String = "1.000000", merchantCurrency: String = "EUR",
    merchantAmount: String = "4.99"
  ) -> String {
    [
      order, date, time, "", type, refundType, "\"Acme Pro, monthly\"", "com.acme.app", "subscription", sku,
      "phone", country, "", "", buyerCurrency, buyerAmount, rate, merchantCurrency, merchantAmount,
    ].joined(separator: ",")
  }

  static let order = [
    Self.header,
    Self.row(),
    Self.row(type: "Google fee", buyerAmount: "-0.75", merchantAmount: "-0.75"),
    Self.row(type: "Tax", buyerAmount: ".80", merchantAmount: ".80"),
    Self.row(
      date: "\"Sep 20, 2026\"", time: "10:01:02 PDT", type: "Charge refund", refundType: "Full",
      buyerAmount: "-4.99", merchantAmount: "-4.99"),
    Self.row(
      order: "GPA.1111-2222-3333-44444..1", date: "\"Dec 1, 2026\"", time: "1:00:00 AM PST", sku: "coins",
      country: "jp", buyerCurrency: "JPY", buyerAmount: "700", rate: "0.006180", merchantAmount: "4.33"),
  ].joined(separator: "\n")

  @Test func anOrdersRowsWithTheirInstants() throws {
    let dir = try TempDir()
    let result = try ReportFormat.earnings.read(text: Self.order, name: "PlayApps_202609.csv", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 5, accepted: 5, rejected: 0))
    let rows = result.rows.playEarnings
    try #require(rows.count == 5)
    let eur = try #require(Currency.named("EUR"))
    var charge = PlayEarningsRow(
      month: date(2026, 9, 1), orderId: "GPA.3352-0306-9721-14048", day: date(2026, 9, 3), type: .charge,
      productId: "pro.monthly", country: "DE", buyerCurrency: eur, buyerAmountMinor: 499,
      merchantCurrency: eur,
      merchantAmountMinor: 499, origin: Origin(file: 4, line: 2))
    // 17:05:59 PDT is 00:05:59 UTC the next day.
    charge.at = date(2026, 9, 4).startUTC.adding(ms: 359_000)
    charge.packageName = "com.acme.app"
    charge.productType = "subscription"
    charge.conversionRate = "1.000000"
    #expect(rows[0] == charge)
    #expect(rows[1].type == .googleFee)
    #expect(rows[1].merchantAmountMinor == -75)
    #expect(rows[2].type == .tax)
    #expect(rows[2].buyerAmountMinor == 80)
    #expect(rows[3].type == .chargeRefund)
    #expect(rows[3].refundType == "Full")
    #expect(rows[3].buyerAmountMinor == -499)
    #expect(rows[3].at == date(2026, 9, 20).startUTC.adding(ms: (17 * 3600 + 62) * 1000))
    #expect(rows[4].month == date(2026, 9, 1))
    #expect(rows[4].day == date(2026, 12, 1))
    #expect(rows[4].at == date(2026, 12, 1).startUTC.adding(ms: 9 * 3_600_000))
    #expect(rows[4].buyerCurrency.code == "JPY")
    #expect(rows[4].buyerAmountMinor == 700)
    #expect(rows[4].merchantAmountMinor == 433)
    #expect(rows[4].conversionRate == "0.006180")
    #expect(rows[4].country == "JP")
  }

  @Test func clockForms() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(time: "12:30:00 AM UTC"),
      Self.row(time: "12:00:00 PM PDT"),
      Self.row(time: "23:59:59 GMT"),
      Self.row(time: "5:05:59 PM CEST"),
      Self.row(time: ""),
    ].joined(separator: "\n")
    let result = try ReportFormat.earnings.read(text: text, name: "PlayApps_202609.csv", in: dir)
    #expect(result.rejects == [])
    let day = date(2026, 9, 3).startUTC
    #expect(
      result.rows.playEarnings.map(\.at) == [
        day.adding(ms: 1_800_000), day.adding(ms: 19 * 3_600_000), day.adding(ms: 86_399_000), nil, nil,
      ])
  }

  @Test func dateForms() throws {
    let dir = try TempDir()
    let dates = [
      "\"September 3, 2026\"", "\"Sept 3,2026\"", "\"june 30, 2026\"", "2026-02-28", "\"Feb 29, 2028\"",
    ]
    let text = ([Self.header] + dates.map { Self.row(date: $0) }).joined(separator: "\n")
    let result = try ReportFormat.earnings.read(text: text, name: "PlayApps_202609.csv", in: dir)
    #expect(result.rejects == [])
    #expect(
      result.rows.playEarnings.map(\.day) == [
        date(2026, 9, 3), date(2026, 9, 3), date(2026, 6, 30), date(2026, 2, 28), date(2028, 2, 29),
      ])
  }

  @Test func badRowsAreRejectedAtTheirLines() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(type: "Foo"),
      Self.row(date: "\"Sep 31, 2026\""),
      Self.row(date: "\"Feb 29, 2026\""),
      Self.row(time: "25:00:00 PDT"),
      Self.row(time: "5:05 PM PDT"),
      Self.row(buyerCurrency: "XXQ"),
      Self.row(merchantAmount: "4.999"),
      Self.row(order: ""),
      Self.row(sku: ""),
      Self.row(country: "DEU"),
      Self.row() + ",extra",
      Self.row(order: "", type: "Adjustment", sku: "", country: ""),
      "GPA.1,\"Sep 3, 2026",
    ].joined(separator: "\n")
    let result = try ReportFormat.earnings.read(text: text, name: "PlayApps_202609.csv", in: dir)
    #expect(
      result.reasons == [
        "2: unknown Transaction Type 'Foo'",
        "3: Transaction Date 'Sep 31, 2026' is not a date like Sep 3, 2026",
        "4: Transaction Date 'Feb 29, 2026' is not a date like Sep 3, 2026",
        "5: Transaction Time '25:00:00 PDT' is not a time like 5:05:59 PM PDT",
        "6: Transaction Time '5:05 PM PDT' is not a time like 5:05:59 PM PDT",
        "7: Buyer Currency 'XXQ' is not an ISO 4217 code",
        "8: Amount (Merchant Currency) '4.999' has more digits than EUR allows (2 after the point)",
        "9: missing Description",
        "10: missing Sku Id",
        "11: Buyer Country 'DEU' is not an ISO 3166 alpha-2 country code",
        "12: expected 19 fields as in the header, found 20",
        "14: not valid CSV: a quoted field is not closed before the end of the file",
      ])
    #expect(result.counts == InputCounts(read: 13, accepted: 1, rejected: 12))
    #expect(result.rows.playEarnings.map(\.type) == [.adjustment])
    #expect(result.rows.playEarnings.first?.orderId == "")
  }

  @Test func newerHeaderShuffledMonthFromTheTransactionDate() throws {
    let dir = try TempDir()
    let text = """
      SKU ID,Amount (Merchant Currency),Merchant Currency,Package ID,Transaction Type,Description,\
      Buyer Currency,Amount (Buyer Currency),Buyer Country,Transaction Date
      coins,-4.99,USD,com.acme.app,charge refund,GPA.9,USD,-4.99,us,"Oct 31, 2026"

      """
    let result = try ReportFormat.earnings.read(text: text, name: "earnings.csv", in: dir)
    #expect(result.rejects == [])
    let row = try #require(result.rows.playEarnings.first)
    #expect(row.month == date(2026, 10, 1))
    #expect(row.type == .chargeRefund)
    #expect(row.packageName == "com.acme.app")
    #expect(row.productId == "coins")
    #expect(row.merchantAmountMinor == -499)
    #expect(row.at == nil)
  }

  @Test func zipGzipAndBOMs() throws {
    let dir = try TempDir()
    let paths = [
      try dir.writeZip("earnings_202610_1234567890.zip", entries: [("PlayApps_202609.csv", Self.order)]),
      try dir.writeZip(
        "earnings_202609_1234567890.zip", entries: [("report.csv", Self.order)], method: "ZIP_STORED",
        streamed: true),
      try dir.writeGzip("PlayApps_202609.csv.gz", Self.order),
      try dir.write("PlayApps_202609.csv", bytes: utf8BOM(Self.order)),
      try dir.write("PlayApps_202609_utf16.csv", bytes: utf16LE(Self.order)),
    ]
    for path in paths {
      let result = try ReportFormat.earnings.read(path, name: "earnings")
      #expect(result.rejects == [], "\(path)")
      #expect(result.counts == InputCounts(read: 5, accepted: 5, rejected: 0), "\(path)")
      #expect(result.rows.playEarnings.allSatisfy { $0.month == date(2026, 9, 1) }, "\(path)")
      #expect(result.rows.playEarnings.first?.orderId == "GPA.3352-0306-9721-14048")
      #expect(result.rows.playEarnings.map(\.origin.line) == [2, 3, 4, 5, 6])
    }
  }

  @Test func monthFromFileNames() {
    #expect(PlayEarningsDates.month(fileName: "reports/PlayApps_202609.csv") == date(2026, 9, 1))
    #expect(PlayEarningsDates.month(fileName: "earnings_202612_123.zip") == date(2026, 12, 1))
    #expect(PlayEarningsDates.month(fileName: "PlayApps_202613.csv") == nil)
    #expect(PlayEarningsDates.month(fileName: "PlayApps_2026091.csv") == nil)
    #expect(PlayEarningsDates.month(fileName: "sales_202609.csv") == nil)
  }
}
