import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct PlaySalesReportImporterTests {
  static let header = """
    Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Device Model,Product Title,\
    Product ID,Product Type,SKU ID,Currency of Sale,Item Price,Taxes Collected,Charged Amount,City of Buyer,\
    State of Buyer,Postal Code of Buyer,Country of Buyer,Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,\
    Promotion ID,Coupon Value,Discount Rate,Featured Product ID
    """

  /// A 25-column row with the given values in the columns this importer reads.
  static func row(
    order: String = "GPA.3352-0306-9721-14048", date: String = "2024-01-01", timestamp: String = "1704112948",
    status: String = "Charged", type: String = "subscription", sku: String = "pro", currency: String = "EUR",
    price: String = "4.15", tax: String = "0.84", charged: String = "4.99", basePlan: String = "monthly",
    offer: String = ""
  ) -> String {
    [
      order, date, timestamp, status, "d2x", "\"Pro, monthly\"", "com.acme.app", type, sku, currency, price,
      tax,
      charged, "", "", "", "DE", basePlan, offer, "123", "Yes", "", "", "", "",
    ].joined(separator: ",")
  }

  func importCSV(_ text: String, name: String = "salesreport_202401.csv") throws -> ImportResult<
    StoreTransaction
  > {
    let dir = try TempDir()
    return try runImporter(PlaySalesReportImporter(), try dir.write(name, text), name: name)
  }

  @Test func chargedAndRefundRows() throws {
    let text = [
      Self.header,
      Self.row(),
      Self.row(order: "GPA.3352-0306-9721-14048..0", timestamp: "1706791348", offer: "intro-50"),
      Self.row(order: "GPA.3352-0306-9721-14048..0", status: "Refund", tax: "-0.84", charged: "-4.99"),
      Self.row(
        order: "GPA.1111-2222-3333-44444", status: "refund", type: "inapp", sku: "coins100", basePlan: ""),
    ].joined(separator: "\n")
    let result = try importCSV(text)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 4, accepted: 4, rejected: 0))
    let first = result.rows[0]
    #expect(first.store == .play)
    #expect(first.kind == .purchase)
    #expect(first.transactionId == "GPA.3352-0306-9721-14048")
    #expect(first.chainKey == "GPA.3352-0306-9721-14048")
    #expect(first.orderBaseIds == ["GPA.3352-0306-9721-14048"])
    #expect(first.productId == "pro:monthly")
    #expect(first.productTypeRaw == "subscription")
    #expect(first.currency?.code == "EUR")
    #expect(first.amountMinor == 499)
    #expect(first.taxMinor == 84)
    #expect(first.at == Instant(ms: 1_704_112_948_000))
    #expect(first.offerId == nil)
    #expect(first.origin == Origin(file: 3, line: 2))
    let renewal = result.rows[1]
    #expect(renewal.transactionId == "GPA.3352-0306-9721-14048..0")
    #expect(renewal.chainKey == "GPA.3352-0306-9721-14048")
    #expect(renewal.offerId == "intro-50")
    let refund = result.rows[2]
    #expect(refund.kind == .refund)
    #expect(refund.amountMinor == 499)
    #expect(refund.taxMinor == 84)
    let oneTime = result.rows[3]
    #expect(oneTime.kind == .refund)
    #expect(oneTime.productId == "coins100")
  }

  @Test func dateIsUsedWhenTimestampIsEmptyOrAbsent() throws {
    let result = try importCSV(
      [Self.header, Self.row(date: "2024-02-29", timestamp: "")].joined(separator: "\n"))
    #expect(result.rows.first?.at == CivilDate(year: 2024, month: 2, day: 29).startUTC)
    let dateOnly = """
      Financial Status,Order Number,SKU ID,Currency of Sale,Charged Amount,Order Charged Date
      Charged,GPA.1,sku,JPY,179,2024-01-31
      """
    let t = try #require(try importCSV(dateOnly).rows.first)
    #expect(t.at == CivilDate(year: 2024, month: 1, day: 31).startUTC)
    #expect(t.amountMinor == 179)
    #expect(t.taxMinor == nil)
    #expect(t.productId == "sku")
  }

  @Test func headerVariantsAndExtraColumnsAreAccepted() throws {
    let text = """
      Extra,Order Number,Order Charged Timestamp,Financial Status,Package ID,SKU ID,Currency of Sale,Charged Amount,Postcode of Buyer
      x,GPA.9,1704112948,Charged,com.acme,sku,KWD,1.500,10115
      """
    let t = try #require(try importCSV(text).rows.first)
    #expect(t.amountMinor == 1500)
    #expect(t.currency?.code == "KWD")
  }

  @Test func missingRequiredColumnsStopTheFile() throws {
    let text = "Order Number,Financial Status,Currency of Sale,Item Price\nGPA.1,Charged,EUR,4.99\n"
    #expect(
      throws: InputError.missingColumns(
        file: "salesreport_202401.csv",
        ["SKU ID", "Charged Amount", "Order Charged Timestamp (or Order Charged Date)"])
    ) {
      _ = try importCSV(text)
    }
  }

  @Test func everyRejectionHasItsReason() throws {
    let text = [
      Self.header,
      Self.row(status: "Pending"),
      Self.row(currency: "XYZ"),
      Self.row(charged: "4.999"),
      Self.row(order: ""),
      Self.row(sku: ""),
      Self.row(charged: ""),
      Self.row(timestamp: "yesterday"),
      Self.row(date: "2024-13-01", timestamp: ""),
      Self.row(tax: "0.8x"),
      "GPA.1,2024-01-01,1704112948,Charged",
      Self.row(),
      "GPA.2,\"unclosed",
    ].joined(separator: "\n")
    let result = try importCSV(text)
    #expect(result.counts == InputCounts(read: 12, accepted: 1, rejected: 11))
    #expect(
      result.rejects.map(\.reason) == [
        "unknown Financial Status 'Pending'",
        "unknown currency 'XYZ'",
        "amount '4.999' has more digits than EUR allows (2 after the point)",
        "missing Order Number",
        "missing SKU ID",
        "missing Charged Amount",
        "Order Charged Timestamp 'yesterday' is not a Unix time in seconds",
        "Order Charged Date '2024-13-01' is not a date (YYYY-MM-DD)",
        "amount '0.8x' is not a decimal number",
        "expected 25 fields as in the header, found 4",
        "not valid CSV: a quoted field is not closed before the end of the file",
      ])
    #expect(result.rejects.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13])
    #expect(result.rejects[0].raw == Self.row(status: "Pending"))
    #expect(result.rejects.allSatisfy { $0.file == "salesreport_202401.csv" })
  }

  @Test func zippedGzippedAndUTF16ReportsReadTheSame() throws {
    let text = [Self.header, Self.row(), Self.row(order: "GPA.3352-0306-9721-14048..0")].joined(
      separator: "\r\n")
    let dir = try TempDir()
    let zip = try dir.writeZip("salesreport_202401.zip", entries: [("salesreport_202401.csv", text)])
    let gz = try dir.writeGzip("salesreport_202401.csv.gz", text)
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let u16 = try dir.write("salesreport_utf16.csv", bytes: utf16)
    let plain = try dir.write("salesreport_202401.csv", text)
    for path in [zip, gz, u16, plain] {
      let result = try runImporter(PlaySalesReportImporter(), path)
      #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0), "\(path)")
      #expect(
        result.rows.map(\.transactionId) == ["GPA.3352-0306-9721-14048", "GPA.3352-0306-9721-14048..0"])
      #expect(result.rows.map(\.amountMinor) == [499, 499])
    }
  }

  @Test func orderIdBase() {
    #expect(PlayOrderId.base("GPA.3352-0306-9721-14048..12") == "GPA.3352-0306-9721-14048")
    #expect(PlayOrderId.base("GPA.3352-0306-9721-14048") == "GPA.3352-0306-9721-14048")
    #expect(PlayOrderId.base("GPA.1..") == "GPA.1..")
    #expect(PlayOrderId.base("GPA.1.5") == "GPA.1.5")
    #expect(PlayOrderId.base("..3") == "")
  }

  @Test(
    .enabled(if: Samples.available, "../shared/samples is absent: Google sales-report sample test skipped"))
  func sampleSalesReportRow() throws {
    let result = try runImporter(
      PlaySalesReportImporter(), Samples.path("google/salesreport_202401_one-row_transcribed.csv"))
    #expect(result.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
    let t = try #require(result.rows.first)
    #expect(t.kind == .purchase)
    #expect(t.transactionId == "GPA.3369-1538-8116-43056")
    #expect(t.chainKey == "GPA.3369-1538-8116-43056")
    #expect(t.productId == "plus_subscription_1year:p1y")
    #expect(t.productTypeRaw == "subscription")
    #expect(t.currency?.code == "GBP")
    #expect(t.amountMinor == 2799)
    #expect(t.taxMinor == 466)
    #expect(t.at == Instant(ms: 1_704_112_948_000))
    #expect(t.environment == .production)
  }
}
