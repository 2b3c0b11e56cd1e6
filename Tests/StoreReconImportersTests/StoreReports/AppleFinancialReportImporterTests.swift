import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct AppleFinancialReportImporterTests {
  static let columns = [
    "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
    "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
    "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
    "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
    "Customer Price", "Customer Currency",
  ]
  static let header = tsv(columns)

  static func row(
    start: String = "10/05/2026", end: String = "11/01/2026", isrc: String = "",
    vendor: String = "pro.monthly",
    quantity: String = "1", share: String = "3.15", extended: String = "3.15", currency: String = "USD",
    salesOrReturn: String = "S", type: String = "IAY", country: String = "US", price: String = "4.49",
    customerCurrency: String = "USD"
  ) -> String {
    tsv([
      start, end, "", isrc, vendor, quantity, share, extended, currency, salesOrReturn, "1234567890", "",
      "Acme Pro", "", "", type, "", country, "", "", price, customerCurrency,
    ])
  }

  @Test func rowsReturnsAndAMatchingTrailer() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(),
      Self.row(isrc: "pro.yearly", quantity: "5", share: "6.30", extended: "31.50", price: "8.99"),
      Self.row(quantity: "-1", extended: "-3.15", salesOrReturn: "R", price: "-4.49"),
      Self.row(quantity: "2", share: ".70", extended: "1.40", price: ".99"),
      "Total_Rows\t4", "Total_Amount\t32.90", "Total_Units\t7",
    ].joined(separator: "\n")
    let result = try ReportFormat.financial.read(text: text, name: "financial.txt", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 4, accepted: 4, rejected: 0))
    let rows = result.rows.appleFinancial
    try #require(rows.count == 4)
    let usd = try #require(Currency.named("USD"))
    #expect(
      rows[0]
        == AppleFinancialRow(
          startDay: date(2026, 10, 5), endDay: date(2026, 11, 1), productId: "pro.monthly",
          productType: "IAY",
          quantity: 1, partnerShareMinor: 315, extendedPartnerShareMinor: 315, partnerShareCurrency: usd,
          isReturn: false, country: "US", customerPriceMinor: 449, customerCurrency: usd,
          origin: Origin(file: 4, line: 2)))
    #expect(rows[1].productId == "pro.yearly")
    #expect(rows[1].extendedPartnerShareMinor == 3150)
    #expect(rows[2].isReturn)
    #expect(rows[2].quantity == -1)
    #expect(rows[2].extendedPartnerShareMinor == -315)
    #expect(rows[2].customerPriceMinor == -449)
    #expect(rows[3].partnerShareMinor == 70)
  }

  @Test func aMismatchingTrailerIsRejectedWithBothNumbers() throws {
    let dir = try TempDir()
    let text = [
      Self.header, Self.row(), Self.row(quantity: "2", extended: "6.30"),
      "Total_Rows\t3", "Total_Amount\t9.46", "Total_Units\t4", "Total_Foo\t1",
    ].joined(separator: "\n")
    let result = try ReportFormat.financial.read(text: text, name: "financial.txt", in: dir)
    #expect(
      result.reasons == [
        "4: Total_Rows says 3, but 2 detail rows were read",
        "5: Total_Amount says 9.46, but the accepted rows' Extended Partner Share sums to 9.45 USD",
        "6: Total_Units says 4, but the accepted rows' Quantity sums to 3",
        "7: unknown trailer line 'Total_Foo'",
      ])
    #expect(result.counts == InputCounts(read: 6, accepted: 2, rejected: 4))
  }

  @Test func eachTrailerChecksTheRowsSinceThePreviousOne() throws {
    let dir = try TempDir()
    let text = [
      Self.header, Self.row(), "Total_Rows\t1", "Total_Amount\t3.15", "Total_Units\t1",
      Self.header, Self.row(quantity: "2", extended: "6.30"), Self.row(), "Total_Rows\t2",
      "Total_Amount\t9.45",
      "Total_Units\t4",
    ].joined(separator: "\n")
    let result = try ReportFormat.financial.read(text: text, name: "financial.txt", in: dir)
    #expect(result.reasons == ["11: Total_Units says 4, but the accepted rows' Quantity sums to 3"])
    #expect(result.counts == InputCounts(read: 4, accepted: 3, rejected: 1))
    #expect(result.rows.appleFinancial.map(\.origin.line) == [2, 7, 8])
  }

  @Test func severalPayoutCurrenciesLeaveTheAmountUnchecked() throws {
    let dir = try TempDir()
    let text = [
      Self.header, Self.row(), Self.row(share: "3.00", extended: "3.00", currency: "EUR"),
      "Total_Rows\t2", "Total_Amount\t999.99", "Total_Units\t2",
    ].joined(separator: "\n")
    let result = try ReportFormat.financial.read(text: text, name: "financial.txt", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
  }

  @Test func badRowsAreRejectedAndTheTrailerCountsThem() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(quantity: "5", share: "6.30", extended: "31.40"),
      Self.row(salesOrReturn: "X"),
      Self.row(start: "13/01/2026"),
      Self.row(vendor: " "),
      Self.row(quantity: "1.5"),
      Self.row(currency: "XXQ"),
      Self.row(country: "USA"),
      Self.row(),
      "Total_Rows\t8", "Total_Amount\t3.15", "Total_Units\t1",
    ].joined(separator: "\n")
    let result = try ReportFormat.financial.read(text: text, name: "financial.txt", in: dir)
    #expect(
      result.reasons == [
        "2: Extended Partner Share 31.40 is not Quantity 5 × Partner Share 6.30 (31.50)",
        "3: Sales or Return 'X' is not S or R",
        "4: Start Date '13/01/2026' is not a date MM/DD/YYYY",
        "5: missing ISRC/ISBN and Vendor Identifier",
        "6: Quantity '1.5' is not a whole number",
        "7: Partner Share Currency 'XXQ' is not an ISO 4217 code",
        "8: Country Of Sale 'USA' is not an ISO 3166 alpha-2 country code",
      ])
    #expect(result.counts == InputCounts(read: 8, accepted: 1, rejected: 7))
  }

  @Test func saleOrReturnSpellingShuffledColumnsAndContainers() throws {
    let dir = try TempDir()
    let header = tsv([
      "Customer Currency", "Sale or Return", "Vendor Identifier", "Country Of Sale", "Quantity",
      "Extended Partner Share", "Partner Share", "Partner Share Currency", "End Date", "Start Date",
      "Customer Price",
    ])
    let text =
      [
        header,
        tsv(["JPY", "R", "coins", "jp", "-2", "-1400", "700", "JPY", "11/01/2026", "10/05/2026", "-1000.00"]),
        "Total_Rows\t1", "Total_Amount\t-1400", "Total_Units\t-2",
      ].joined(separator: "\n") + "\n"
    for path in [
      try dir.write("a.txt", bytes: utf8BOM(text)), try dir.write("b.txt", bytes: utf16LE(text)),
      try dir.writeGzip("c.txt.gz", text),
    ] {
      let result = try ReportFormat.financial.read(path, name: "financial")
      #expect(result.rejects == [])
      #expect(result.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
      let row = try #require(result.rows.appleFinancial.first)
      #expect(row.isReturn)
      #expect(row.quantity == -2)
      #expect(row.extendedPartnerShareMinor == -1400)
      #expect(row.customerPriceMinor == -1000)
      #expect(row.country == "JP")
      #expect(row.productType == "")
    }
  }

  @Test func missingProductColumnsThrow() throws {
    let dir = try TempDir()
    let names = Self.columns.filter { $0 != "ISRC/ISBN" && $0 != "Vendor Identifier" && $0 != "Quantity" }
    let path = try dir.write("financial.txt", tsv(names) + "\n")
    #expect(
      throws: InputError.missingColumns(
        file: "financial.txt", ["Quantity", "ISRC/ISBN (or Vendor Identifier)"])
    ) {
      try ReportFormat.financial.read(path, name: "financial.txt")
    }
  }

  @Test func theSharedSampleReadsAndItsTrailerChecksOut() throws {
    guard Samples.available else {
      print("skipped: ../shared/samples is absent")
      return
    }
    let path = Samples.path("apple-reports/kachit-financial.tsv")
    guard FileManager.default.fileExists(atPath: path) else {
      print("skipped: \(path) is absent")
      return
    }
    let result = try ReportFormat.financial.read(path, name: "kachit-financial.tsv")
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
    let rows = result.rows.appleFinancial
    #expect(rows.map(\.productId) == ["foo.bar.baz", "foo.bar.baz"])
    #expect(rows.map(\.quantity) == [1, 5])
    #expect(rows.map(\.extendedPartnerShareMinor) == [315, 3150])
    #expect(rows.map(\.customerPriceMinor) == [449, 899])
    #expect(rows.first?.startDay == date(2020, 10, 5))
    #expect(rows.first?.endDay == date(2021, 10, 5))
  }
}
