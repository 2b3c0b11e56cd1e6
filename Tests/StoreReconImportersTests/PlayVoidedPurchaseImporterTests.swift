import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconImporters

@Suite struct PlayVoidedPurchaseImporterTests {
  func importLines(_ lines: [String]) throws -> ImportResult<StoreTransaction> {
    let dir = try TempDir()
    let path = try dir.write("voided.jsonl", lines.joined(separator: "\r\n") + "\r\n\r\n")
    return try runImporter(PlayVoidedPurchaseImporter(), path, name: "voided.jsonl")
  }

  @Test func mapsVoidedPurchases() throws {
    let result = try importLines([
      #"{"kind":"androidpublisher#voidedPurchase","purchaseToken":"tok","orderId":"GPA.1234-5678-9012-34567..2","purchaseTimeMillis":"1704112948000","voidedTimeMillis":"1704200000000","voidedSource":0,"voidedReason":1}"#,
      #"{"orderId":"GPA.1111-2222-3333-44444","voidedTimeMillis":1704300000000,"voidedReason":"7"}"#,
      #"{"purchaseToken":"only-token","voidedTimeMillis":"1704400000000"}"#,
    ])
    // A void without its order cannot be put on a charge: rejected (issue 13).
    #expect(result.counts == InputCounts(read: 3, accepted: 2, rejected: 1))
    #expect(result.rejects.map(\.reason) == ["missing orderId"])
    let first = result.rows[0]
    #expect(first.store == .play)
    #expect(first.kind == .void)
    #expect(first.chainKey == "tok")
    #expect(first.purchaseToken == "tok")
    #expect(first.transactionId == "GPA.1234-5678-9012-34567..2")
    #expect(first.orderBaseIds == ["GPA.1234-5678-9012-34567"])
    #expect(first.at == Instant(ms: 1_704_200_000_000))
    #expect(first.originalAt == Instant(ms: 1_704_112_948_000))
    #expect(first.revocationReason == 1)
    #expect(first.productId == "")
    #expect(first.currency == nil)
    let second = result.rows[1]
    #expect(second.chainKey == "GPA.1111-2222-3333-44444")
    #expect(second.purchaseToken == nil)
    #expect(second.revocationReason == 7)
  }

  @Test func everyRejectionHasItsReason() throws {
    let result = try importLines([
      #"{"voidedTimeMillis":"1704200000000"}"#,
      #"{"orderId":"GPA.1"}"#,
      #"{"orderId":"GPA.1","voidedTimeMillis":"tomorrow"}"#,
      #"{"orderId":"GPA.1","voidedTimeMillis":"1704200000000","voidedReason":"fraud"}"#,
      #"{"orderId":"GPA.1","voidedTimeMillis":"-1"}"#,
      #"{"orderId":"GPA.1","voidedTimeMillis":"4102444800000"}"#,
      "[",
    ])
    #expect(result.counts == InputCounts(read: 7, accepted: 0, rejected: 7))
    #expect(
      result.rejects.map(\.reason) == [
        "missing orderId",
        "missing voidedTimeMillis",
        "voidedTimeMillis 'tomorrow' is not a Unix time in milliseconds",
        "voidedReason 'fraud' is not a whole number",
        "voidedTimeMillis 1969-12-31T23:59:59.999Z is before 2008-01-01 (no store sold in-app purchases then)",
        "voidedTimeMillis 2100-01-01T00:00:00.000Z is more than 10 years after the report date",
        "not valid JSON: unexpected end of input at byte 1",
      ])
    #expect(result.rejects.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
  }
}
