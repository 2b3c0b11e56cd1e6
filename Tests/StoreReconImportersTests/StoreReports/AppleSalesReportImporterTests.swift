import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct AppleSalesReportImporterTests {
  /// The Summary Sales report's 28 columns, as Apple writes them.
  static let columns = [
    "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier",
    "Units",
    "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code",
    "Currency of Proceeds",
    "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period",
    "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client",
    "Order Type",
  ]
  static let header = tsv(columns)

  /// A row with the given values; the other cells as Apple fills them (a blank is a single space).
  static func row(
    sku: String = "pro.monthly", type: String = "IAY", units: String = "1", proceeds: String = "3.49",
    begin: String = "11/28/2026", end: String = "11/28/2026", customerCurrency: String = "USD",
    country: String = "US", proceedsCurrency: String = "USD", price: String = "4.99",
    subscription: String = "Renewal", period: String = "1 Month", reason: String = " "
  ) -> String {
    tsv([
      "APPLE", "US", sku, "Acme Inc", "Acme Pro", " ", type, units, proceeds, begin, end, customerCurrency,
      country, proceedsCurrency, "1234567890", price, " ", "acme.app", subscription, period, "Productivity",
      " ", "iPhone", "iOS", reason, " ", " ", " ",
    ])
  }

  static let refund = row(units: "-1", proceeds: "3.49", price: "-4.99")

  @Test func chargeRefundAndLeadingDotDecimals() throws {
    let dir = try TempDir()
    let text = [
      Self.header, Self.row(),
      Self.refund,
      Self.row(
        sku: "app", type: "1F", units: "100", proceeds: ".70", price: ".99", subscription: " ", period: " "),
      Self.row(
        units: "2.00", proceeds: "2090.00", customerCurrency: "JPY", country: "jp", proceedsCurrency: "JPY",
        price: "2990.00", reason: "Rate After One Year"),
      "",
    ].joined(separator: "\n")
    let result = try ReportFormat.sales.read(text: text, name: "S_D_8912_20261128.txt", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 4, accepted: 4, rejected: 0))
    let rows = result.rows.appleSales
    try #require(rows.count == 4)
    let usd = try #require(Currency.named("USD"))
    var expected = AppleSalesRow(
      day: date(2026, 11, 28), endDay: date(2026, 11, 28), productId: "pro.monthly", productType: "IAY",
      units: 1, customerPriceMinor: 499, customerCurrency: usd, proceedsPerUnitMinor: 349,
      proceedsCurrency: usd, country: "US", origin: Origin(file: 4, line: 2))
    expected.subscription = "Renewal"
    expected.period = "1 Month"
    #expect(rows[0] == expected)
    #expect(rows[0].isInApp)
    #expect(rows[1].units == -1)
    #expect(rows[1].customerPriceMinor == -499)
    #expect(rows[1].proceedsPerUnitMinor == 349)
    #expect(rows[1].origin == Origin(file: 4, line: 3))
    #expect(rows[2].units == 100)
    #expect(rows[2].proceedsPerUnitMinor == 70)
    #expect(rows[2].customerPriceMinor == 99)
    #expect(rows[2].subscription == "")
    #expect(!rows[2].isInApp)
    #expect(rows[3].units == 2)
    #expect(rows[3].customerPriceMinor == 2990)
    #expect(rows[3].customerCurrency.code == "JPY")
    #expect(rows[3].proceedsPerUnitMinor == 2090)
    #expect(rows[3].country == "JP")
    #expect(rows[3].proceedsReason == "Rate After One Year")
  }

  @Test func everyBadRowIsRejectedAtItsLineWithItsReason() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(units: "1.5"),
      Self.row(customerCurrency: "XXQ"),
      Self.row(begin: "13/01/2026"),
      Self.row(begin: "02/01/2026", end: "02/30/2026"),
      Self.row(price: "4.999"),
      Self.row(customerCurrency: "JPY", price: "2990.50"),
      Self.row(proceeds: "abc"),
      Self.row(country: "USA"),
      Self.row(sku: " "),
      Self.row(proceedsCurrency: ""),
      Self.row(begin: "11/29/2026"),
      Self.row() + "\textra",
      "APPLE\tUS\tshort",
      Self.row(),
    ].joined(separator: "\n")
    let result = try ReportFormat.sales.read(text: text, name: "sales.txt", in: dir)
    #expect(
      result.reasons == [
        "2: Units '1.5' is not a whole number",
        "3: Customer Currency 'XXQ' is not an ISO 4217 code",
        "4: Begin Date '13/01/2026' is not a date MM/DD/YYYY",
        "5: End Date '02/30/2026' is not a date MM/DD/YYYY",
        "6: Customer Price '4.999' has more digits than USD allows (2 after the point)",
        "7: Customer Price '2990.50' has more digits than JPY allows (0 after the point)",
        "8: Developer Proceeds 'abc' is not a decimal number",
        "9: Country Code 'USA' is not an ISO 3166 alpha-2 country code",
        "10: missing SKU",
        "11: missing Currency of Proceeds",
        "12: End Date 2026-11-28 is before Begin Date 2026-11-29",
        "13: expected 28 fields as in the header, found 29",
        "14: expected 28 fields as in the header, found 3",
      ])
    #expect(result.counts == InputCounts(read: 14, accepted: 1, rejected: 13))
    #expect(result.rows.appleSales.map(\.origin.line) == [15])
    #expect(result.rejects.first?.file == "sales.txt")
    #expect(result.rejects.first?.raw == Self.row(units: "1.5"))
  }

  @Test func headerMappedByNameInAnyOrderAndCase() throws {
    let dir = try TempDir()
    let names = [
      "customer price", "COUNTRY CODE", "Units", "SKU", "Begin Date", "End Date", "Customer Currency",
      "Currency of Proceeds", "Developer Proceeds", "Product Type Identifier",
    ]
    let text = [
      tsv(names),
      tsv(["-0.99", "de", "-1", "coins", "11/28/2026", "11/28/2026", "EUR", "EUR", ".70", "IA1"]),
    ].joined(separator: "\r\n")
    let result = try ReportFormat.sales.read(text: text, name: "sales.txt", in: dir)
    #expect(result.rejects == [])
    let row = try #require(result.rows.appleSales.first)
    #expect(row.productId == "coins")
    #expect(row.units == -1)
    #expect(row.customerPriceMinor == -99)
    #expect(row.proceedsPerUnitMinor == 70)
    #expect(row.country == "DE")
    #expect(row.proceedsReason == "")
  }

  @Test func quotesAndCommasAreTextInATabSeparatedReport() throws {
    let dir = try TempDir()
    let row = Self.row().replacingOccurrences(of: "Acme Pro", with: "\"Acme\" Pro, \"Max")
    let result = try ReportFormat.sales.read(
      text: Self.header + "\n" + row + "\n", name: "sales.txt", in: dir)
    #expect(result.rejects == [])
    #expect(result.rows.appleSales.first?.customerPriceMinor == 499)
  }

  @Test func missingColumnsThrow() throws {
    let dir = try TempDir()
    let path = try dir.write("sales.txt", tsv(["SKU", "Units", "Begin Date"]) + "\n")
    #expect(
      throws: InputError.missingColumns(
        file: "sales.txt",
        [
          "Product Type Identifier", "Developer Proceeds", "End Date", "Customer Currency", "Country Code",
          "Currency of Proceeds", "Customer Price",
        ])
    ) { try ReportFormat.sales.read(path, name: "sales.txt") }
  }

  @Test func bomsGzipAndBlankLines() throws {
    let dir = try TempDir()
    let text = [Self.header, Self.row(), "", "  ", Self.refund].joined(separator: "\n") + "\n"
    let paths = [
      try dir.write("bom8.txt", bytes: utf8BOM(text)),
      try dir.write("bom16.txt", bytes: utf16LE(text)),
      try dir.writeGzip("S_D_8912_20261128.txt.gz", text),
    ]
    for path in paths {
      let result = try ReportFormat.sales.read(path, name: "report")
      #expect(result.rejects == [])
      #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
      #expect(result.rows.appleSales.map(\.units) == [1, -1])
      #expect(result.rows.appleSales.map(\.origin.line) == [2, 5])
      #expect(result.rows.appleSales.first?.productId == "pro.monthly")
    }
  }
}
