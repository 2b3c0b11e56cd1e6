import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

@Suite struct GoodwillCSVReaderTests {
  func read(_ text: String) throws -> ImportResult<GoodwillGrant> {
    let dir = try TempDir()
    return try runReader(GoodwillCSVReader(), try dir.write("goodwill.csv", text), name: "goodwill.csv")
  }

  @Test func readsGrants() throws {
    let text = """
      grant_id,user_id,product_id,starts_at,ends_at,reason
      g1,u1,pro:monthly,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,"outage on 3 Nov, 2 days"
      g2,u2,pro:monthly,,,
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
    #expect(result.rows[0].reason == "outage on 3 Nov, 2 days")
    #expect(result.rows[0].endsAt == Instant.parseISO8601("2026-12-01T00:00:00Z"))
    #expect(result.rows[1].reason == "")
    #expect(result.rows[1].startsAt == nil)
  }

  @Test func everyRejectionHasItsReason() throws {
    let text = """
      grant_id,user_id,product_id,starts_at,ends_at,reason
      ,u,p,,,r
      g,,p,,,r
      g,u,,,,r
      g,u,p,2026-11-01T00:00:00,,r
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 4, accepted: 0, rejected: 4))
    #expect(
      result.rejects.map(\.reason) == [
        "missing grant_id", "missing user_id", "missing product_id",
        "starts_at '2026-11-01T00:00:00' is not an ISO 8601 timestamp with an offset",
      ])
  }

  @Test func missingFileIsNotFound() {
    #expect(throws: InputError.notFound(path: "goodwill.csv")) {
      _ = try runReader(GoodwillCSVReader(), "/nonexistent/goodwill.csv", name: "goodwill.csv")
    }
  }
}
