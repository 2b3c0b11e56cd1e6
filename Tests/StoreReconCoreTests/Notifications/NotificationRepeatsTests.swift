import Testing

@testable import StoreReconCore

/// A webhook delivered twice is one notification; two rows of one id that disagree are a conflict.
struct NotificationRepeatsTests {
  static func row(
    _ id: String, line: Int32, received: Int64, processed: Int64?, type: String = "SUBSCRIPTION_RENEWED"
  )
    -> StoreNotification
  {
    var n = StoreNotification(
      store: .play, notificationId: id, type: type, origin: Origin(file: 3, line: line))
    n.receivedAt = Instant(ms: received)
    n.processedAt = processed.map { Instant(ms: $0) }
    n.chainKey = "token-1"
    n.eventAt = Instant(ms: 1_000)
    return n
  }

  @Test func aRedeliveryIsMergedIntoTheFirstRow() {
    let first = Self.row("m-1", line: 2, received: 5_000, processed: nil)
    let again = Self.row("m-1", line: 9, received: 9_000, processed: 9_500)
    let other = Self.row("m-2", line: 4, received: 6_000, processed: 6_100)
    let (rows, repeats) = NotificationRepeats.deduplicated([again, other, first])
    #expect(rows.map(\.notificationId) == ["m-1", "m-2"])
    // The first delivery's receipt, and processed by the redelivery: processed.
    #expect(rows[0].origin.line == 2 && rows[0].receivedAt == Instant(ms: 5_000))
    #expect(rows[0].processedAt == Instant(ms: 9_500))
    #expect(repeats == [NotificationRepeats.Repeat(dropped: again.origin, kept: first.origin, conflict: nil)])
  }

  @Test func rowsOfOneIdThatDisagreeAreAConflict() {
    let first = Self.row("m-1", line: 2, received: 5_000, processed: 5_100)
    let clash = Self.row("m-1", line: 3, received: 5_000, processed: 5_100, type: "SUBSCRIPTION_REVOKED")
    let (rows, repeats) = NotificationRepeats.deduplicated([first, clash])
    #expect(rows == [first])
    #expect(repeats.count == 1 && repeats[0].conflict?.contains("SUBSCRIPTION_REVOKED") == true)
  }

  @Test func noRepeatLeavesTheRowsAsTheyAre() {
    let rows = [
      Self.row("b", line: 5, received: 1, processed: 2), Self.row("a", line: 2, received: 1, processed: 2),
    ]
    let out = NotificationRepeats.deduplicated(rows)
    #expect(out.rows == rows && out.repeats.isEmpty)
  }
}
