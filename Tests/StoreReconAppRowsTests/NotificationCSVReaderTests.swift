import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

/// The notifications contract: the columns in any order, what the contract rejects before a payload
/// is decoded, and the decoder's verdict applied to each row in file order (decoding runs on all
/// cores: many rows, rejects in the middle).
@Suite struct NotificationCSVReaderTests {
  /// A decoder for the test: a payload `ok:<type>` decodes to that type; anything else is rejected.
  static var reader: NotificationCSVReader {
    NotificationCSVReader {
      { (row: NotificationRow) throws(RowRejection) -> DecodedNotification in
        guard row.payload.hasPrefix("ok:") else { throw RowRejection("payload '\(row.payload)' is not ok") }
        var n = StoreNotification(
          store: row.store, notificationId: row.notificationId, type: String(row.payload.dropFirst(3)),
          origin: row.origin)
        n.receivedAt = row.receivedAt
        n.processedAt = row.processedAt
        return DecodedNotification(notification: n, record: nil)
      }
    }
  }

  func read(_ text: String) throws -> ImportResult<DecodedNotification> {
    let dir = try TempDir()
    return try runReader(Self.reader, try dir.write("notifications.csv", text), name: "notifications.csv")
  }

  @Test func readsTheContractInAnyColumnOrder() throws {
    let text = """
      payload,store,received_at,notification_id,processed_at,note
      ok:DID_RENEW,app_store,2026-11-01T10:00:00Z,n1,2026-11-01T10:00:02Z,x
      "ok:SUBSCRIPTION_RENEWED",play,2026-11-01T11:00:00+01:00,m1,,"a, b"
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
    #expect(result.rows.map(\.notification.type) == ["DID_RENEW", "SUBSCRIPTION_RENEWED"])
    #expect(result.rows[1].notification.processedAt == nil)
    #expect(result.rows[1].notification.receivedAt == Instant.parseISO8601("2026-11-01T10:00:00Z"))
    #expect(result.rows[0].notification.origin.line == 2)
  }

  @Test func theContractRejectsBeforeAnyPayloadIsDecoded() throws {
    let text = """
      store,notification_id,received_at,processed_at,payload
      stripe,evt_1,2026-11-01T10:00:00Z,,ok:X
      app_store,,2026-11-01T10:00:00Z,,ok:X
      app_store,n2,2026-11-01T10:00:00,,ok:X
      app_store,n3,2026-11-01T10:00:00Z,2026-11-01T09:59:59Z,ok:X
      app_store,n4,2026-11-01T10:00:00Z,,
      app_store,n5,2026-11-01T10:00:00Z,,bad
      """
    let result = try read(text)
    // A Stripe row is a notification like the stores' (its event decoded by the decoder).
    #expect(result.counts == InputCounts(read: 6, accepted: 1, rejected: 5))
    #expect(result.rows.map(\.notification.store) == [.stripe])
    let reasons = result.rejects.sorted { $0.line < $1.line }.map(\.reason)
    #expect(reasons[0].contains("notification_id"))
    #expect(reasons[1].contains("received_at"))
    #expect(
      reasons[2] == "processed_at 2026-11-01T09:59:59.000Z is before received_at 2026-11-01T10:00:00.000Z")
    #expect(reasons[3].contains("payload"))
    #expect(reasons[4] == "payload 'bad' is not ok")
  }

  @Test func manyRowsKeepTheirOrderAndEachVerdict() throws {
    var text = "store,notification_id,received_at,processed_at,payload\n"
    for i in 0..<5000 {
      text += "app_store,n\(i),2026-11-01T10:00:00Z,,\(i % 7 == 3 ? "bad" : "ok:T\(i)")\n"
    }
    let result = try read(text)
    let bad = (0..<5000).filter { $0 % 7 == 3 }
    #expect(result.counts == InputCounts(read: 5000, accepted: 5000 - bad.count, rejected: bad.count))
    #expect(result.rows.map(\.notification.type) == (0..<5000).filter { $0 % 7 != 3 }.map { "T\($0)" })
    #expect(result.rejects.map(\.line).sorted() == bad.map { $0 + 2 })
  }
}
