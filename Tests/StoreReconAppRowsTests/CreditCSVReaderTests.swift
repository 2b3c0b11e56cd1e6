import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

@Suite struct CreditCSVReaderTests {
  func read(_ text: String) throws -> ImportResult<CreditRow> {
    let dir = try TempDir()
    return try runReader(CreditCSVReader(), try dir.write("credits.csv", text), name: "credits.csv")
  }

  @Test func readsCredits() throws {
    let text = """
      reversed_at,credit_id,user_id,store,transaction_id,product_id,quantity,credited_at,note
      ,cr1,u1,app_store,2000000000000013,com.acme.coins100,200,2026-11-01T10:00:05Z,first
      2026-11-03T00:00:00+01:00,cr2,u2,play,GPA.1234-5678-9012-34567,coins100,100,,"a, b"
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
    #expect(
      result.rows[0]
        == CreditRow(
          creditId: "cr1", userId: "u1", store: .appStore, transactionId: "2000000000000013",
          productId: "com.acme.coins100", quantity: 200,
          creditedAt: Instant.parseISO8601("2026-11-01T10:00:05Z"),
          reversedAt: nil, origin: Origin(file: 1, line: 2)))
    #expect(result.rows[1].store == .play)
    #expect(result.rows[1].creditedAt == nil)
    #expect(result.rows[1].reversedAt == Instant.parseISO8601("2026-11-02T23:00:00Z"))
  }

  @Test func everyRejectionHasItsReason() throws {
    let text = """
      credit_id,user_id,store,transaction_id,product_id,quantity,credited_at,reversed_at
      ,u,app_store,1,p,1,,
      c,,app_store,1,p,1,,
      c,u,itunes,1,p,1,,
      c,u,app_store,,p,1,,
      c,u,app_store,1,,1,,
      c,u,app_store,1,p,0,,
      c,u,app_store,1,p,1.5,,
      c,u,app_store,1,p,1,2026-11-01T00:00:00,
      c,u,app_store,1,p,1,2026-11-02T00:00:00Z,2026-11-01T00:00:00Z
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 9, accepted: 0, rejected: 9))
    #expect(
      result.rejects.map(\.reason) == [
        "missing credit_id", "missing user_id",
        "unknown store 'itunes' (expected one of app_store, play, stripe)", "missing transaction_id",
        "missing product_id", "quantity '0' is not a whole number of at least 1",
        "quantity '1.5' is not a whole number of at least 1",
        "credited_at '2026-11-01T00:00:00' is not an ISO 8601 timestamp with an offset",
        "reversed_at 2026-11-01T00:00:00.000Z is before credited_at 2026-11-02T00:00:00.000Z",
      ])
  }

  @Test func aMissingColumnStopsTheFile() throws {
    let dir = try TempDir()
    let path = try dir.write("credits.csv", "credit_id,user_id,store,transaction_id,product_id,quantity\n")
    #expect(throws: InputError.self) { _ = try runReader(CreditCSVReader(), path, name: "credits.csv") }
  }
}
