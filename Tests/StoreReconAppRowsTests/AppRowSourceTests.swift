import Testing

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

/// App rows read from a byte stream (as a query's COPY output arrives): the same rules and rejects as
/// a file, lines numbered by row. No server needed.
struct AppRowSourceTests {
  @Test func copyOutputParsesLikeAFileWithRowNumbers() throws {
    // What PostgreSQL writes for the entitlements query: timestamptz as `YYYY-MM-DD hh:mm:ss+00`,
    // NULL as an empty field, a quoted field with a line break.
    let text = """
      entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at
      e1,u1,pro:monthly,play,GPA.1,active,2026-11-01 00:00:00+00,2026-12-01 10:00:00.5+00,
      e2,u2,"pro
      monthly",app_store,,suspended,2026-11-01 00:00:00+00,,
      e3,u3,com.acme.pro.monthly,app_store,100,grace,2026-11-01 00:00:00+00,,

      """
    let rejects = RejectList()
    var rows: [Entitlement] = []
    let counts = try EntitlementCSVReader().read(
      source: MemorySource(text), displayName: "queries/entitlements.sql", fileIndex: 4, rejects: rejects
    ) { rows.append($0) }
    #expect(counts == InputCounts(read: 3, accepted: 2, rejected: 1))
    #expect(rows.map(\.entitlementId) == ["e1", "e3"])
    #expect(rows[0].expiresAt == Instant.parseISO8601("2026-12-01T10:00:00.500Z"))
    #expect(rows[0].updatedAt == nil)
    #expect(rows[0].origin == Origin(file: 4, line: 1))
    #expect(rows[1].origin == Origin(file: 4, line: 3))
    #expect(rejects.rejects.count == 1)
    #expect(rejects.rejects.first?.file == "queries/entitlements.sql")
    #expect(rejects.rejects.first?.line == 2)
    #expect(rejects.rejects.first?.reason.hasPrefix("unknown status 'suspended'") == true)
  }
}
