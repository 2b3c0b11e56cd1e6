import Testing

@testable import StoreReconDemo

/// The demo's check that each planted refund one source shows is named by its source.
@Suite struct DemoRefundSourceCheckTests {
  static let expected = [
    "GPA.1": DemoRefundSourceCheck.play("earnings Charge refund"),
    "2000000001": DemoRefundSourceCheck.appLogOnly,
  ]

  @Test func findingsNamingExactlyTheirSourcePass() {
    let findings = [
      ("GPA.1", "refunded", "latest order GPA.1 returned (earnings Charge refund) 2026-09-14T10:00:00.000Z"),
      (
        "2000000001", "refunded",
        "refunded 2026-09-20T00:00:00.000Z (REFUND_FULL); REFUND notification in the app's log"
      ),
    ]
    #expect(DemoRefundSourceCheck.misses(findings, expected: Self.expected).isEmpty)
  }

  @Test func anotherSourceOrAMissingFindingIsAMiss() {
    let findings = [
      (
        "GPA.1", "refunded",
        "latest order GPA.1 returned (refund row, earnings Charge refund) 2026-09-14T10:00:00.000Z"
      ),
      (
        "2000000001", "refunded",
        "refunded 2026-09-20T00:00:00.000Z (REFUND_FULL); REFUND notification in the app's log and "
          + "Apple's notification history"
      ),
    ]
    let misses = DemoRefundSourceCheck.misses(findings, expected: Self.expected)
    #expect(misses.count == 2)
    #expect(misses.first?.hasPrefix("2000000001: the refunded finding does not say") == true)
    let none = DemoRefundSourceCheck.misses([], expected: Self.expected)
    #expect(none.count == 2 && none.allSatisfy { $0.hasSuffix("(no refunded finding)") })
    // A finding of another reason does not count.
    let other = DemoRefundSourceCheck.misses(
      [("GPA.1", "store_expired", "latest order GPA.1 returned (earnings Charge refund) x")],
      expected: ["GPA.1": DemoRefundSourceCheck.play("earnings Charge refund")])
    #expect(other.count == 1)
  }
}
