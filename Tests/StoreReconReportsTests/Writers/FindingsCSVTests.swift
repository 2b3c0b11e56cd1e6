import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// findings.csv: the columns it had, then `what_to_do` and `docs` (docs/reports.md#findingscsv).
struct FindingsCSVTests {
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static func finding(_ reason: Finding.Reason, detail: String = "seen") throws -> Finding {
    Finding(
      reason: reason, store: .appStore, chainKey: "1000", userId: "u1", productId: "pro",
      currency: try #require(Currency.named("USD")), amountMinor: 999, detail: detail)
  }

  @Test func theHeaderKeepsItsColumnsAndAppendsTheNextStep() {
    let header = Self.text(ReportTables.findingsCSV([])).split(separator: "\n").first.map(String.init)
    let expected = [
      "finding_key,kind,reason,store,chain_key,user_id,product_id,currency,amount_minor,since,detail,",
      "what_to_do,docs,state,first_seen,age_days",
    ].joined()
    #expect(header == expected)
  }

  @Test func eachRowCarriesItsReasonsStepAndLink() throws {
    let findings = try [Self.finding(.creditedTwice), Self.finding(.storeExpired)]
    let rows = Self.text(ReportTables.findingsCSV(findings)).split(separator: "\n").map(String.init)
    #expect(rows.count == 3)
    let twice = try #require(NextStep.of(.creditedTwice))
    let expired = try #require(NextStep.of(.storeExpired))
    #expect(
      rows[1].hasSuffix(",seen,\"\(twice.whatToDo)\",docs/rules.md#double_creditcredited_twice,,,"),
      "\(rows[1])"
    )
    #expect(rows[2].hasSuffix(",\"\(expired.whatToDo)\",docs/rules.md#free_entitlementstore_expired,,,"))
    #expect(twice.whatToDo != expired.whatToDo)
  }

  @Test func theDocsBaseIsConfigurable() throws {
    let csv = Self.text(
      ReportTables.findingsCSV([try Self.finding(.refunded)], docsBase: "https://docs.example.com/sr/"))
    #expect(csv.hasSuffix(",https://docs.example.com/sr/rules.md#free_entitlementrefunded,,,\n"))
  }
}
