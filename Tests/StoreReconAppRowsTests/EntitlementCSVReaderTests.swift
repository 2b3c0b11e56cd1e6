import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

@Suite struct EntitlementCSVReaderTests {
  func read(_ text: String) throws -> ImportResult<Entitlement> {
    let dir = try TempDir()
    return try runReader(
      EntitlementCSVReader(), try dir.write("entitlements.csv", text), name: "entitlements.csv")
  }

  @Test func readsRowsInAnyColumnOrder() throws {
    let text = """
      status,user_id,entitlement_id,product_id,source,store_key,starts_at,expires_at,updated_at,note
      active,u1,e1,pro:monthly,play,GPA.1..2,2026-11-01T00:00:00Z,2026-12-01T00:00:00+01:00,,"x, y"
      expired,u2,e2,lifetime,app_store,,2026-01-01 10:00:00+00,,2026-01-02T00:00:00.5Z,
      """
    let result = try read(text)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
    let first = result.rows[0]
    #expect(first.entitlementId == "e1")
    #expect(first.userId == "u1")
    #expect(first.productId == "pro:monthly")
    #expect(first.source == .play)
    #expect(first.storeKey == "GPA.1..2")
    #expect(first.status == .active)
    #expect(first.startsAt == Instant.parseISO8601("2026-11-01T00:00:00Z"))
    #expect(first.expiresAt == Instant.parseISO8601("2026-11-30T23:00:00Z"))
    #expect(first.updatedAt == nil)
    #expect(first.origin == Origin(file: 1, line: 2))
    let second = result.rows[1]
    #expect(second.storeKey == nil)
    #expect(second.expiresAt == nil)
    #expect(second.status == .expired)
    #expect(second.source == .appStore)
    #expect(second.updatedAt == Instant.parseISO8601("2026-01-02T00:00:00.500Z"))
  }

  @Test func missingContractColumnStopsTheFile() throws {
    #expect(
      throws: InputError.missingColumns(file: "entitlements.csv", ["store_key", "updated_at"])
    ) {
      _ = try read("entitlement_id,user_id,product_id,source,status,starts_at,expires_at\n")
    }
  }

  @Test func everyRejectionHasItsReason() throws {
    let header = "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at"
    let text = [
      header,
      ",u,p,play,k,active,,,",
      "e,,p,play,k,active,,,",
      "e,u,,play,k,active,,,",
      "e,u,p,,k,active,,,",
      "e,u,p,itunes,k,active,,,",
      "e,u,p,play,k,enabled,,,",
      "e,u,p,play,k,active,2026-11-01T00:00:00,,",
      "e,u,p,play,k,active,,31/12/2026,",
      "e,u,p,play,k,active",
      "e,u,p,PLAY,k,Grace,,,",
    ].joined(separator: "\n")
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 10, accepted: 1, rejected: 9))
    #expect(
      result.rejects.map(\.reason) == [
        "missing entitlement_id",
        "missing user_id",
        "missing product_id",
        "missing source",
        "unknown source 'itunes' (expected one of app_store, play, stripe, goodwill, promo, manual)",
        "unknown status 'enabled' (expected one of active, grace, billing_retry, on_hold, paused, expired, revoked)",
        "starts_at '2026-11-01T00:00:00' is not an ISO 8601 timestamp with an offset",
        "expires_at '31/12/2026' is not an ISO 8601 timestamp with an offset",
        "expected 9 fields as in the header, found 6",
      ])
    #expect(result.rejects.map(\.line) == Array(2...10))
    #expect(result.rejects[6].raw == "e,u,p,play,k,active,2026-11-01T00:00:00,,")
    #expect(result.rows.first?.source == .play)
    #expect(result.rows.first?.status == .grace)
  }
}

extension EntitlementCSVReaderTests {
  @Test func aUserIdInLatin1OrWithNULIsRejectedNotMerged() throws {
    let dir = try TempDir()
    let header = "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
    var bytes = Array(header.utf8)
    bytes += Array("e1,jos\u{e9},p,play,k,active,,,\n".utf8)
    bytes += Array("e2,jos".utf8) + [0xE9] + Array(",p,play,k,active,,,\n".utf8)
    bytes += Array("e3,jos".utf8) + [0x00] + Array(",p,play,k,active,,,\n".utf8)
    let path = try dir.write("entitlements.csv", bytes: bytes)
    let result = try runReader(EntitlementCSVReader(), path, name: "entitlements.csv")
    #expect(result.counts == InputCounts(read: 3, accepted: 1, rejected: 2))
    #expect(result.rows.map(\.userId) == ["josé"])
    #expect(
      result.rejects.map(\.reason) == [
        "not valid CSV: invalid UTF-8 at byte 6", "not valid CSV: NUL byte at byte 6",
      ])
    #expect(result.rejects.map(\.line) == [3, 4])
  }
}

extension EntitlementCSVReaderTests {
  static let unbalanced =
    [
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at",
      "e1,u1,p,play,k1,active,,,",
      "e2,\"u2,p,play,k2,active,,,",  // the quote is never closed
      "e3,u3,p,play,k3,active,,,",
      "e4,u4,p,play,\"k4\nstill k4\",active,,,",  // a quoted line break, closed: one record
      "e5,u5,p,play,k5,active,,,",
    ].joined(separator: "\n") + "\n"

  static let unbalancedReason =
    "not valid CSV: a quoted field is not closed before the next line that is a record of its own (read from there)"

  @Test func anUnbalancedQuoteRejectsItsOwnRecordAndReadingGoesOnAtTheNextRecord() throws {
    let result = try read(Self.unbalanced)
    #expect(result.counts == InputCounts(read: 5, accepted: 4, rejected: 1))
    #expect(result.rows.map(\.entitlementId) == ["e1", "e3", "e4", "e5"])
    #expect(result.rows.map(\.storeKey) == ["k1", "k3", "k4\nstill k4", "k5"])
    #expect(result.rows.map(\.origin.line) == [2, 4, 5, 7])
    #expect(result.rejects.map(\.line) == [3])
    #expect(result.rejects.map(\.reason) == [Self.unbalancedReason])
  }

  @Test(arguments: [16, 40, 1 << 20])
  func theChunkedReaderResynchronisesTheSame(chunkBytes: Int) throws {
    let dir = try TempDir()
    let path = try dir.write("entitlements.csv", Self.unbalanced)
    let sink = RejectList()
    var table = PackedEntitlements()
    let counts = try EntitlementCSVReader().read(
      path: path, displayName: "entitlements.csv", fileIndex: 1, rejects: sink, into: &table,
      chunkBytes: chunkBytes, threads: 2)
    #expect(counts == InputCounts(read: 5, accepted: 4, rejected: 1))
    #expect(sink.rejects.map(\.line) == [3])
    #expect(sink.rejects.map(\.reason) == [Self.unbalancedReason])
  }

  @Test(arguments: [40, 1 << 20])
  func aPassLeavesOtherUsersRowsOutAsItReadsThemAndStillKnowsTheirIds(chunkBytes: Int) throws {
    let header = "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
    let row = { (id: String, user: String) in
      "\(id),\(user),pro,app_store,1000,active,2026-01-01T00:00:00Z,2027-01-01T00:00:00Z,2026-01-01T00:00:00Z\n"
    }
    // e1 first read for another user, then for ours (a repeat); e2 ours, then another user's (theirs
    // to report); e3 ours twice (a duplicate).
    let text =
      header + row("e1", "them") + row("e1", "us") + row("e2", "us") + row("e2", "them") + row("e3", "us")
      + row("e3", "us") + row("e4", "them")
    let dir = try TempDir()
    let path = try dir.write("entitlements.csv", text)
    var table = PackedEntitlements()
    let ids = EntitlementIds()
    let counts = try EntitlementCSVReader().read(
      path: path, displayName: "entitlements.csv", fileIndex: 0, rejects: RejectList(), into: &table,
      ids: ids, keeps: { $0 == "us" }, chunkBytes: chunkBytes, threads: 2)
    #expect(counts == InputCounts(read: 7, accepted: 7, rejected: 0))
    #expect(table.rows.map(\.entitlementId) == ["e2", "e3"], "only our users' first rows are held")
    #expect(table.rows.allSatisfy { $0.userId == "us" })
    #expect(ids.repeats.map(\.id) == ["e1", "e3"])
    #expect(ids.repeats.map(\.conflict) == ["user_id", nil])
    #expect(ids.repeats.map(\.kept.line) == [2, 6])
  }
}
