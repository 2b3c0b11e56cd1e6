import Testing

@testable import StoreReconCore

/// One row per `credit_id` and `entitlement_id` (docs/contracts.md#one-row-per-id): a later row with
/// an id already read is a duplicate when it is the same row, else a conflict naming the column.
struct AppRowRepeatsTests {
  static func credit(_ id: String, line: Int32, quantity: Int64 = 100, file: Int32 = 2) -> CreditRow {
    CreditRow(
      creditId: id, userId: "u1", store: .appStore, transactionId: "2000000000000266",
      productId: "com.acme.coins100", quantity: quantity, creditedAt: Instant(ms: 1_000), reversedAt: nil,
      origin: Origin(file: file, line: line))
  }

  static func entitlement(_ id: String, line: Int32, status: EntitlementStatus = .active) -> Entitlement {
    Entitlement(
      entitlementId: id, userId: "u1", productId: "pro", source: .appStore, storeKey: "2000000000000019",
      status: status, startsAt: Instant(ms: 1_000), expiresAt: nil, updatedAt: nil,
      origin: Origin(file: 1, line: line))
  }

  @Test func creditsWithoutARepeatStayAsGiven() {
    let rows = [Self.credit("c2", line: 3), Self.credit("c1", line: 2)]
    let once = AppRowRepeats.credits(rows)
    #expect(once.rows == rows)
    #expect(once.repeats.isEmpty)
  }

  @Test func aRepeatedCreditIsADuplicateOrAConflict() {
    let rows = [
      Self.credit("c1", line: 2), Self.credit("c2", line: 3), Self.credit("c1", line: 4),
      Self.credit("c2", line: 5, quantity: 700),
      // Another file of the same contract: the first read (by input, then line) is kept.
      Self.credit("c3", line: 2, file: 5), Self.credit("c3", line: 9, file: 4),
    ]
    let once = AppRowRepeats.credits(rows)
    #expect(once.rows.map(\.origin.line) == [2, 3, 9])
    #expect(
      once.repeats == [
        AppRowRepeats.Repeat(
          column: "credit_id", id: "c1", dropped: Origin(file: 2, line: 4), kept: Origin(file: 2, line: 2),
          conflict: nil),
        AppRowRepeats.Repeat(
          column: "credit_id", id: "c2", dropped: Origin(file: 2, line: 5), kept: Origin(file: 2, line: 3),
          conflict: "quantity"),
        AppRowRepeats.Repeat(
          column: "credit_id", id: "c3", dropped: Origin(file: 5, line: 2), kept: Origin(file: 4, line: 9),
          conflict: nil),
      ])
  }

  @Test func aRepeatedEntitlementIsLeftOutOfTheTable() {
    var table = PackedEntitlements()
    let ids = EntitlementIds()
    table.append(Self.entitlement("e1", line: 2), ids: ids)
    table.append(Self.entitlement("e2", line: 3), ids: ids)
    table.append(Self.entitlement("e1", line: 4), ids: ids)
    table.append(Self.entitlement("e2", line: 5, status: .revoked), ids: ids)
    #expect(table.count == 2)
    #expect(table[1].status == .active)
    #expect(
      ids.repeats == [
        AppRowRepeats.Repeat(
          column: "entitlement_id", id: "e1", dropped: Origin(file: 1, line: 4),
          kept: Origin(file: 1, line: 2),
          conflict: nil),
        AppRowRepeats.Repeat(
          column: "entitlement_id", id: "e2", dropped: Origin(file: 1, line: 5),
          kept: Origin(file: 1, line: 3),
          conflict: "status"),
      ])
  }
}
