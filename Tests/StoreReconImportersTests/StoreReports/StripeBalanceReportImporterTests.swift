import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

/// Stripe's itemized balance change report: columns by name, exact major-unit money, rejects with file,
/// line and reason (docs/inputs.md#stripe-balance-reports).
@Suite struct StripeBalanceReportImporterTests {
  /// The columns `fetch stripe` asks for (version 3), in Stripe's order.
  static let header = """
    balance_transaction_id,created_utc,available_on_utc,currency,gross,fee,net,reporting_category,\
    source_id,description,customer_facing_amount,customer_facing_currency,automatic_payout_id,\
    automatic_payout_effective_at_utc,customer_id,charge_id,payment_intent_id,charge_created_utc,\
    invoice_id,subscription_id,payment_method_type
    """

  static func row(
    id: String = "txn_1", created: String = "2026-11-03 14:05:06", currency: String = "usd",
    gross: String = "9.99", fee: String = "0.59", net: String = "9.40", category: String = "charge",
    source: String = "ch_1", facing: String = "", facingCurrency: String = "", payout: String = "po_1",
    charge: String = "ch_1", invoice: String = "in_1"
  ) -> String {
    [
      id, created, "2026-11-05 00:00:00", currency, gross, fee, net, category, source, "\"Pro, monthly\"",
      facing, facingCurrency, payout, "2026-11-06 00:00:00", "cus_1", charge, "pi_1", created, invoice,
      "sub_1", "card",
    ].joined(separator: ",")
  }

  @Test func aChargeAndARefundWithTheirIdsAndExactMoney() throws {
    let dir = try TempDir()
    let text = [
      Self.header, Self.row(),
      Self.row(
        id: "txn_2", created: "2026-11-20T08:00:00Z", gross: "-9.99", fee: "0.00", net: "-9.99",
        category: "refund", source: "re_1", payout: ""),
      Self.row(
        id: "txn_3", currency: "jpy", gross: "1500", fee: "54", net: "1446", source: "ch_2", charge: "ch_2",
        invoice: ""),
    ].joined(separator: "\n")
    let result = try ReportFormat.stripeBalance.read(text: text, name: "balance.csv", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 3, accepted: 3, rejected: 0))
    let rows = result.rows.stripeBalance
    try #require(rows.count == 3)
    let usd = try #require(Currency.named("USD"))
    var charge = StripeBalanceRow(
      id: "txn_1", created: date(2026, 11, 3).startUTC.adding(ms: (14 * 3600 + 5 * 60 + 6) * 1000),
      currency: usd, grossMinor: 999, feeMinor: 59, netMinor: 940, category: "charge",
      origin: Origin(file: 4, line: 2))
    charge.availableOn = date(2026, 11, 5).startUTC
    charge.sourceId = "ch_1"
    charge.chargeId = "ch_1"
    charge.paymentIntentId = "pi_1"
    charge.invoiceId = "in_1"
    charge.subscriptionId = "sub_1"
    charge.customerId = "cus_1"
    charge.payoutId = "po_1"
    charge.payoutAt = date(2026, 11, 6).startUTC
    #expect(rows[0] == charge)
    #expect(rows[1].grossMinor == -999 && rows[1].category == "refund" && rows[1].sourceId == "re_1")
    #expect(rows[1].created == date(2026, 11, 20).startUTC.adding(ms: 8 * 3_600_000))
    #expect(rows[1].payoutId == "")
    #expect(rows[2].currency.code == "JPY" && rows[2].grossMinor == 1500 && rows[2].feeMinor == 54)
  }

  @Test func columnsByNameInAnyOrderAndCase() throws {
    let dir = try TempDir()
    let text = """
      Reporting_Category,Net,Fee,Gross,Currency,Created,Balance_Transaction_Id,Exchange_Rate
      charge,10.84,0.31,11.15,USD,2026-11-03 14:05,txn_9,1.115
      """
    let result = try ReportFormat.stripeBalance.read(text: text, name: "v1.csv", in: dir)
    #expect(result.rejects == [])
    let row = try #require(result.rows.stripeBalance.first)
    #expect(row.id == "txn_9" && row.grossMinor == 1115 && row.feeMinor == 31 && row.netMinor == 1084)
    #expect(row.exchangeRate == "1.115")
    #expect(row.created == date(2026, 11, 3).startUTC.adding(ms: (14 * 3600 + 5 * 60) * 1000))
  }

  @Test func badRowsAreRejectedAtTheirLinesWithTheirReasons() throws {
    let dir = try TempDir()
    let text = [
      Self.header,
      Self.row(gross: "9.999"),
      Self.row(currency: "jpy", gross: "1500.5", fee: "54", net: "1446.5"),
      Self.row(currency: "xyz"),
      Self.row(created: "03/11/2026"),
      Self.row(id: ""),
      Self.row(category: ""),
      Self.row(fee: "abc"),
      Self.row() + ",extra",
      Self.row(id: "txn_ok"),
    ].joined(separator: "\n")
    let result = try ReportFormat.stripeBalance.read(text: text, name: "bad.csv", in: dir)
    #expect(
      result.reasons == [
        "2: gross '9.999' has more digits than USD allows (2 after the point)",
        "3: gross '1500.5' has more digits than JPY allows (0 after the point)",
        "4: currency 'xyz' is not an ISO 4217 code",
        "5: created_utc '03/11/2026' is not a UTC time like 2026-11-03 14:05:06",
        "6: missing balance_transaction_id",
        "7: missing reporting_category",
        "8: fee 'abc' is not a decimal number",
        "9: expected 21 fields as in the header, found 22",
      ])
    #expect(result.rejects.allSatisfy { $0.file == "bad.csv" })
    #expect(result.counts == InputCounts(read: 9, accepted: 1, rejected: 8))
    #expect(result.rows.stripeBalance.map(\.id) == ["txn_ok"])
  }

  @Test func invalidUTF8IsOneRejectedRowAndGzipReadsTheSame() throws {
    let dir = try TempDir()
    var bytes = Array((Self.header + "\n" + Self.row() + "\n").utf8)
    bytes += Array(Self.row(id: "txn_bad").utf8).map { $0 == UInt8(ascii: "P") ? 0xFF : $0 } + [0x0A]
    let result = try ReportFormat.stripeBalance.read(
      try dir.write("utf8.csv", bytes: bytes), name: "utf8.csv")
    #expect(result.counts == InputCounts(read: 2, accepted: 1, rejected: 1))
    #expect(result.rejects.first?.line == 3)
    #expect(result.rejects.first?.reason.hasPrefix("not valid CSV") == true)
    let text = Self.header + "\n" + Self.row()
    let gzip = try ReportFormat.stripeBalance.read(try dir.writeGzip("b.csv.gz", text), name: "b.csv.gz")
    let plain = try ReportFormat.stripeBalance.read(text: text, name: "b.csv", in: dir)
    #expect(gzip.rows.stripeBalance == plain.rows.stripeBalance)
  }

  @Test func aMissingColumnNamesTheFile() throws {
    let dir = try TempDir()
    #expect(throws: InputError.self) {
      try ReportFormat.stripeBalance.read(
        text: "balance_transaction_id,gross\ntxn_1,1.00", name: "x.csv", in: dir)
    }
  }

  @Test func theReportIsRecognisedUnderAnotherKey() {
    #expect(InputRecognition.recognise(prefix: Array(Self.header.utf8)) == .stripeBalance)
    #expect(RecognisedInput.stripeBalance.configKey == "stripe.reports")
  }
}
