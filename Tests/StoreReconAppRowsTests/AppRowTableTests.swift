import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconAppRows
import StoreReconIO

/// The packed tables the run keeps, read in chunks on several threads, hold exactly the rows (and the
/// rejects) the row readers give.
@Suite struct AppRowTableTests {
  static let entitlements = """
    entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at
    e1,u1,pro:monthly,play,GPA.1234-5678-9012-34567..2,active,2026-11-01T00:00:00Z,2026-12-01T00:00:00+01:00,
    e2,u2,lifetime,app_store,,expired,2026-01-01 10:00:00+00,,2026-01-02T00:00:00.5Z

    e3,u3,"pro, yearly",play,tokA.AO-1,grace,2026-02-01T00:00:00Z,,
    e4,u4,pro,nowhere,k,active,,,
    e5,,pro,play,k,active,,,
    e6,u6,pro,app_store,2000000000000019,ACTIVE,2026-02-01T00:00:00Z,2026-03-01T00:00:00,
    e7,u7,"two
    lines",stripe,cus_1,revoked,,,
    short,row
    e8,u8,pro,promo,,active,,,
    """

  static let credentials = """
    store,store_key,user_id,linked_store_key,order_id,claimed_at
    app_store,2000000000000019,u1,,,2026-06-23T22:17:45.218Z
    play,tokA.AO-1,u2,tokOld,GPA.1928-4331-4712-34567,2026-03-17T04:24:37.000Z
    play,,u3,,,
    shop,k,u4,,,
    play,tokB,u5,,GPA.1928-4331-4712-34567..9,
    stripe,cus_1,u6,,,yesterday
    """

  /// A repeated `entitlement_id` is left out of the table and recorded with its line and the kept
  /// row's, whatever the chunks (docs/contracts.md#one-row-per-id).
  @Test func repeatedEntitlementIdsAreRecordedWithTheirLines() throws {
    let dir = try TempDir()
    let text =
      Self.entitlements + "\ne1,u1,pro:monthly,play,GPA.1234-5678-9012-34567..2,active,"
      + "2026-11-01T00:00:00Z,2026-12-01T00:00:00+01:00,2026-11-02T00:00:00Z\ne2,u2,lifetime,app_store,,active,,,\n"
    let path = try dir.write("entitlements.csv", text)
    for (chunkBytes, threads) in [(7, 2), (64, 3), (1 << 20, 1)] {
      var table = PackedEntitlements()
      let ids = EntitlementIds()
      let counts = try EntitlementCSVReader().read(
        path: path, displayName: "entitlements.csv", fileIndex: 1, rejects: RejectList(), into: &table,
        ids: ids,
        chunkBytes: chunkBytes, threads: threads)
      #expect(counts.accepted == 7)
      #expect(table.count == 5)
      #expect(
        ids.repeats
          == [
            AppRowRepeats.Repeat(
              column: "entitlement_id", id: "e1", dropped: Origin(file: 1, line: 13),
              kept: Origin(file: 1, line: 2), conflict: nil),
            AppRowRepeats.Repeat(
              column: "entitlement_id", id: "e2", dropped: Origin(file: 1, line: 14),
              kept: Origin(file: 1, line: 3), conflict: "status"),
          ], "chunks of \(chunkBytes) bytes")
    }
  }

  /// The chunked readers refuse a header that names a column twice, as the row readers do.
  @Test func aHeaderNamingAColumnTwiceIsRefused() throws {
    let dir = try TempDir()
    let path = try dir.write(
      "entitlements.csv", Self.entitlements.replacingOccurrences(of: "updated_at\n", with: "Status\n"))
    var table = PackedEntitlements()
    #expect(
      throws: InputError.malformed(
        path: "entitlements.csv",
        reason: "the header row (line 1) names column 'Status' twice (columns 6 and 9): which one holds the "
          + "data cannot be told")
    ) {
      try EntitlementCSVReader().read(
        path: path, displayName: "entitlements.csv", fileIndex: 1, rejects: RejectList(), into: &table)
    }
  }

  @Test func entitlementTableMatchesTheRowReader() throws {
    let dir = try TempDir()
    let path = try dir.write("entitlements.csv", Self.entitlements)
    let expected = try runReader(EntitlementCSVReader(), path, name: "entitlements.csv")
    for (chunkBytes, threads) in [(7, 2), (64, 3), (1 << 20, 1)] {
      var table = PackedEntitlements()
      let sink = RejectList()
      let counts = try EntitlementCSVReader().read(
        path: path, displayName: "entitlements.csv", fileIndex: 1, rejects: sink, into: &table,
        chunkBytes: chunkBytes,
        threads: threads)
      #expect(counts == expected.counts)
      #expect(sink.rejects == expected.rejects)
      let rows = (0..<table.count).map { table[$0] }
      #expect(rows.count == expected.rows.count)
      for (got, want) in zip(rows, expected.rows) {
        #expect(
          [
            got.entitlementId, got.userId, got.productId, got.source.rawValue, got.storeKey ?? "-",
            got.status.rawValue,
          ]
            == [
              want.entitlementId, want.userId, want.productId, want.source.rawValue, want.storeKey ?? "-",
              want.status.rawValue,
            ])
        #expect(got.startsAt == want.startsAt && got.expiresAt == want.expiresAt)
      }
    }
  }

  @Test func credentialTableMatchesTheRowReader() throws {
    let dir = try TempDir()
    let path = try dir.write("credentials.csv", Self.credentials)
    let expected = try runReader(CredentialCSVReader(), path, name: "credentials.csv")
    for (chunkBytes, threads) in [(5, 2), (50, 3), (1 << 20, 1)] {
      var table = PackedCredentials()
      let sink = RejectList()
      let counts = try CredentialCSVReader().read(
        path: path, displayName: "credentials.csv", fileIndex: 1, rejects: sink, into: &table,
        chunkBytes: chunkBytes,
        threads: threads)
      #expect(counts == expected.counts)
      #expect(sink.rejects == expected.rejects)
      let rows = (0..<table.count).map { table[$0] }
      #expect(rows.count == expected.rows.count)
      for (got, want) in zip(rows, expected.rows) {
        #expect(
          [got.store.rawValue, got.storeKey, got.userId, got.linkedStoreKey ?? "-", got.orderId ?? "-"]
            == [
              want.store.rawValue, want.storeKey, want.userId, want.linkedStoreKey ?? "-",
              want.orderId ?? "-",
            ])
        #expect(got.claimedAt == want.claimedAt)
      }
    }
  }
}
