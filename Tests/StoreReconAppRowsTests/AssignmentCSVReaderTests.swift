import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconAppRows

@Suite struct AssignmentCSVReaderTests {
  func read(_ text: String) throws -> ImportResult<Assignment> {
    let dir = try TempDir()
    return try runReader(
      AssignmentCSVReader(), try dir.write("assignments.csv", text), name: "assignments.csv")
  }

  @Test func readsAssignments() throws {
    let result = try read(
      "arm_id,experiment_id,user_id,assigned_at\nB,price-2026,u1,2026-10-01T12:00:00-05:00\n\n")
    #expect(result.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
    let row = try #require(result.rows.first)
    #expect(row.userId == "u1")
    #expect(row.experimentId == "price-2026")
    #expect(row.armId == "B")
    #expect(row.assignedAt == Instant.parseISO8601("2026-10-01T17:00:00Z"))
  }

  @Test func everyColumnIsRequired() throws {
    let text = """
      user_id,experiment_id,arm_id,assigned_at
      ,x,A,2026-10-01T00:00:00Z
      u,,A,2026-10-01T00:00:00Z
      u,x,,2026-10-01T00:00:00Z
      u,x,A,
      u,x,A,2026-10-01T00:00
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 5, accepted: 0, rejected: 5))
    #expect(
      result.rejects.map(\.reason) == [
        "missing user_id", "missing experiment_id", "missing arm_id", "missing assigned_at",
        "assigned_at '2026-10-01T00:00' is not an ISO 8601 timestamp with an offset",
      ])
  }
}
