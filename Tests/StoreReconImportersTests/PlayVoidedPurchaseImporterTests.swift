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
    #expect(result.counts == InputCounts(read: 3, accepted: 3, rejected: 0))
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
    let third = result.rows[2]
    #expect(third.chainKey == "only-token")
    #expect(third.transactionId == "only-token")
    #expect(third.orderBaseIds == [])
  }

  @Test func everyRejectionHasItsReason() throws {
    let result = try importLines([
      #"{"voidedTimeMillis":"1704200000000"}"#,
      #"{"orderId":"GPA.1"}"#,
      #"{"orderId":"GPA.1","voidedTimeMillis":"tomorrow"}"#,
      #"{"orderId":"GPA.1","voidedTimeMillis":"1","voidedReason":"fraud"}"#,
      "[",
    ])
    #expect(result.counts == InputCounts(read: 5, accepted: 0, rejected: 5))
    #expect(
      result.rejects.map(\.reason) == [
        "missing purchaseToken and orderId",
        "missing voidedTimeMillis",
        "voidedTimeMillis 'tomorrow' is not a Unix time in milliseconds",
        "voidedReason 'fraud' is not a whole number",
        "not valid JSON: unexpected end of input at byte 1",
      ])
    #expect(result.rejects.map(\.line) == [1, 2, 3, 4, 5])
  }
}
