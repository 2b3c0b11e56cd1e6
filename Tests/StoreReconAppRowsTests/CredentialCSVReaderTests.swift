import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

@Suite struct CredentialCSVReaderTests {
  func read(_ text: String) throws -> ImportResult<Credential> {
    let dir = try TempDir()
    return try runReader(
      CredentialCSVReader(), try dir.write("credentials.csv", text), name: "credentials.csv")
  }

  @Test func readsCredentials() throws {
    let text = """
      store,store_key,user_id,linked_store_key,order_id,claimed_at
      play,tok-1,u1,tok-0,GPA.1..0,2026-11-01T10:00:00+02:00
      app_store,12345,u2,,,
      stripe,sub_1,u3,,,2026-11-02T00:00:00Z
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 3, accepted: 3, rejected: 0))
    #expect(result.rows.map(\.store) == [.play, .appStore, .stripe])
    let first = result.rows[0]
    #expect(first.storeKey == "tok-1")
    #expect(first.userId == "u1")
    #expect(first.linkedStoreKey == "tok-0")
    #expect(first.orderId == "GPA.1..0")
    #expect(first.claimedAt == Instant.parseISO8601("2026-11-01T08:00:00Z"))
    #expect(result.rows[1].linkedStoreKey == nil)
    #expect(result.rows[1].orderId == nil)
    #expect(result.rows[1].claimedAt == nil)
  }

  @Test func everyRejectionHasItsReason() throws {
    let text = """
      store,store_key,user_id,linked_store_key,order_id,claimed_at
      amazon,k,u,,,
      play,,u,,,
      play,k,,,,
      play,k,u,,,2026-11-01
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 4, accepted: 0, rejected: 4))
    #expect(
      result.rejects.map(\.reason) == [
        "unknown store 'amazon' (expected one of app_store, play, stripe)",
        "missing store_key",
        "missing user_id",
        "claimed_at '2026-11-01' is not an ISO 8601 timestamp with an offset",
      ])
  }

  @Test func missingColumns() {
    #expect(throws: InputError.missingColumns(file: "credentials.csv", ["store", "claimed_at"])) {
      _ = try read("store_key,user_id,linked_store_key,order_id\n")
    }
  }
}
