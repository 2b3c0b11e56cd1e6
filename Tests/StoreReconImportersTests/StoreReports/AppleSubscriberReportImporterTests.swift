import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct AppleSubscriberReportImporterTests {
  /// The Subscriber report's columns (1_3).
  static let columns = [
    "Event Date", "App Name", "App Apple ID", "Subscription Name", "Subscription Apple ID",
    "Subscription Group ID", "Standard Subscription Duration", "Subscription Offer Name",
    "Promotional Offer ID",
    "Subscription Offer Type", "Subscription Offer Duration", "Marketing Opt-In Duration", "Customer Price",
    "Customer Currency", "Developer Proceeds", "Proceeds Currency", "Preserved Pricing", "Proceeds Reason",
    "Client", "Device", "Country", "Subscriber ID", "Subscriber ID Reset", "Refund", "Purchase Date", "Units",
  ]
  static let header = tsv(columns)

  static func row(
    day: String = "2026-11-28", name: String = "Pro Monthly", price: String = "4.49",
    currency: String = "USD",
    proceeds: String = "3.15", proceedsCurrency: String = "USD", country: String = "UA",
    subscriber: String = "1234567890000", refund: String = " ", purchase: String = " ", units: String = "1"
  ) -> String {
    tsv([
      day, "Acme", "111", name, "222", "333", "1 Month", " ", " ", " ", " ", " ", price, currency, proceeds,
      proceedsCurrency, " ", " ", " ", "iPhone", country, subscriber, " ", refund, purchase, units,
    ])
  }

  @Test func chargeAndRefund() throws {
    let dir = try TempDir()
    let text = [
      Self.header, Self.row(),
      Self.row(
        price: "-85.43", currency: "RUB", proceeds: "59.80", proceedsCurrency: "RUB", country: "RU",
        subscriber: "1234567890044", refund: "Yes", purchase: "2026-09-30", units: "0"),
      Self.row(price: ".70", proceeds: ".49", refund: "yes", units: "1.00"),
    ].joined(separator: "\n")
    let result = try ReportFormat.subscriber.read(text: text, name: "subscriber.txt", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 3, accepted: 3, rejected: 0))
    let rows = result.rows.appleSubscriber
    try #require(rows.count == 3)
    let usd = try #require(Currency.named("USD"))
    #expect(
      rows[0]
        == AppleSubscriberRow(
          day: date(2026, 11, 28), subscriptionName: "Pro Monthly", subscriptionAppleId: "222",
          customerPriceMinor: 449, customerCurrency: usd, proceedsMinor: 315, proceedsCurrency: usd,
          country: "UA",
          subscriberId: "1234567890000", refund: false, purchaseDay: nil, units: 1,
          origin: Origin(file: 4, line: 2)))
    #expect(rows[1].refund)
    #expect(rows[1].customerPriceMinor == -8543)
    #expect(rows[1].proceedsMinor == 5980)
    #expect(rows[1].customerCurrency.code == "RUB")
    #expect(rows[1].purchaseDay == date(2026, 9, 30))
    #expect(rows[1].units == 0)
    #expect(rows[2].customerPriceMinor == 70)
    #expect(rows[2].proceedsMinor == 49)
    #expect(rows[2].refund)
  }

  @Test func badRowsAreRejectedAtTheirLines() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(day: "11/28/2026"),
      Self.row(refund: "Maybe"),
      Self.row(subscriber: " "),
      Self.row(units: "1.5"),
      Self.row(purchase: "2026-02-30"),
      Self.row(currency: "XXQ"),
      Self.row(country: "1A"),
      Self.row(proceeds: "3.155"),
      Self.row(),
    ].joined(separator: "\n")
    let result = try ReportFormat.subscriber.read(text: text, name: "subscriber.txt", in: dir)
    #expect(
      result.reasons == [
        "2: Event Date '11/28/2026' is not a date YYYY-MM-DD",
        "3: Refund 'Maybe' is not Yes or blank",
        "4: missing Subscriber ID",
        "5: Units '1.5' is not a whole number",
        "6: Purchase Date '2026-02-30' is not a date YYYY-MM-DD",
        "7: Customer Currency 'XXQ' is not an ISO 4217 code",
        "8: Country '1A' is not an ISO 3166 alpha-2 country code",
        "9: Developer Proceeds '3.155' has more digits than USD allows (2 after the point)",
      ])
    #expect(result.counts == InputCounts(read: 9, accepted: 1, rejected: 8))
  }

  @Test func olderHeaderShuffledWithBOMs() throws {
    let dir = try TempDir()
    // The 2020 files: `Promotional Offer Name`, no Subscription Apple ID, columns in another order.
    let header = tsv([
      "Units", "Country", "Subscriber ID", "Promotional Offer Name", "Customer Currency", "Customer Price",
      "Proceeds Currency", "Developer Proceeds", "Event Date", "Refund",
    ])
    let text =
      [header, tsv(["1", "de", "42", "Intro", "EUR", "2.99", "EUR", "2.09", "2020-10-05", " "])]
      .joined(separator: "\n") + "\n"
    for path in [
      try dir.write("a.txt", bytes: utf8BOM(text)), try dir.write("b.txt", bytes: utf16LE(text)),
      try dir.writeGzip("c.txt.gz", text),
    ] {
      let result = try ReportFormat.subscriber.read(path, name: "subscriber")
      #expect(result.rejects == [])
      let row = try #require(result.rows.appleSubscriber.first)
      #expect(row.day == date(2020, 10, 5))
      #expect(row.country == "DE")
      #expect(row.subscriberId == "42")
      #expect(row.customerPriceMinor == 299)
      #expect(row.proceedsMinor == 209)
      #expect(row.subscriptionAppleId == "")
      #expect(!row.refund)
    }
  }
}
