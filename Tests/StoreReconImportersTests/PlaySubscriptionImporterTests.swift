import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconImporters

@Suite struct PlaySubscriptionImporterTests {
  func importLines(_ lines: [String]) throws -> ImportResult<StoreTransaction> {
    let dir = try TempDir()
    let path = try dir.write("subs.jsonl", lines.joined(separator: "\n"))
    return try runImporter(PlaySubscriptionImporter(), path, name: "subs.jsonl")
  }

  static let active = """
    {"kind":"androidpublisher#subscriptionPurchaseV2","purchaseToken":"tok-new","regionCode":"DE",\
    "startTime":"2026-10-01T08:00:00.123Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE",\
    "linkedPurchaseToken":"tok-old","externalAccountIdentifiers":{"obfuscatedExternalAccountId":"user-42"},\
    "lineItems":[\
    {"productId":"basic","expiryTime":"2026-11-01T08:00:00Z","latestSuccessfulOrderId":"GPA.1111-1111-1111-11111..3",\
    "offerDetails":{"basePlanId":"monthly"}},\
    {"productId":"pro","expiryTime":"2026-12-01T08:00:00+01:00","latestSuccessfulOrderId":"GPA.2222-2222-2222-22222",\
    "autoRenewingPlan":{"autoRenewEnabled":true,"recurringPrice":{"currencyCode":"EUR","units":"9","nanos":990000000}},\
    "offerDetails":{"basePlanId":"yearly","offerId":"arm-b","offerTags":["exp1"]},"offerPhase":{"freeTrial":{}}}]}
    """

  @Test func mapsTheLatestLineItem() throws {
    let result = try importLines([Self.active])
    #expect(result.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
    let t = try #require(result.rows.first)
    #expect(t.store == .play)
    #expect(t.kind == .status)
    #expect(t.chainKey == "tok-new")
    #expect(t.transactionId == "tok-new")
    #expect(t.purchaseToken == "tok-new")
    #expect(t.at == Instant.parseISO8601("2026-10-01T08:00:00.123Z"))
    #expect(t.state == "SUBSCRIPTION_STATE_ACTIVE")
    #expect(!t.pending)
    #expect(t.environment == .production)
    #expect(t.linkedChainKey == "tok-old")
    #expect(t.accountToken == "user-42")
    #expect(t.expiresAt == Instant.parseISO8601("2026-12-01T07:00:00Z"))
    #expect(t.orderBaseIds == ["GPA.1111-1111-1111-11111", "GPA.2222-2222-2222-22222"])
    #expect(t.productId == "pro:yearly")
    #expect(t.offerId == "arm-b")
    #expect(t.isTrial)
    #expect(t.productTypeRaw == "subscription")
    #expect(t.currency?.code == "EUR")
    #expect(t.amountMinor == 999)
  }

  @Test func pendingWithoutStartTimeAndTestPurchase() throws {
    let result = try importLines([
      #"{"purchaseToken":"p1","subscriptionState":"SUBSCRIPTION_STATE_PENDING","lineItems":[{"productId":"pro"}]}"#,
      #"{"purchaseToken":"p2","subscriptionState":"SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"}"#,
      #"{"purchaseToken":"p3","startTime":"2026-01-01T00:00:00Z","testPurchase":{},"latestOrderId":"GPA.9..1"}"#,
    ])
    #expect(result.rejects == [])
    #expect(result.rows.map(\.pending) == [true, true, false])
    #expect(result.rows[0].at == Instant.distantPast)
    #expect(result.rows[0].productId == "pro")
    #expect(result.rows[0].expiresAt == nil)
    #expect(result.rows[0].currency == nil)
    #expect(result.rows[0].amountMinor == 0)
    #expect(result.rows[1].productId == "")
    #expect(result.rows[2].environment == .test)
    #expect(result.rows[2].orderBaseIds == ["GPA.9"])
  }

  @Test func everyRejectionHasItsReason() throws {
    let result = try importLines([
      #"{"startTime":"2026-01-01T00:00:00Z"}"#,
      #"{"purchaseToken":"t","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE"}"#,
      #"{"purchaseToken":"t","startTime":"2026-01-01T00:00:00"}"#,
      #"{"purchaseToken":"t","startTime":"2026-01-01T00:00:00Z","lineItems":[{"productId":"p","expiryTime":"later"}]}"#,
      #"{"purchaseToken":"t","startTime":"2026-01-01T00:00:00Z","lineItems":[{"productId":"p","autoRenewingPlan":{"recurringPrice":{"currencyCode":"XYZ","units":"1"}}}]}"#,
      #"{"purchaseToken":"t","startTime":"2026-01-01T00:00:00Z","lineItems":[{"productId":"p","autoRenewingPlan":{"recurringPrice":{"currencyCode":"JPY","units":"1","nanos":500000000}}}]}"#,
      "{oops}",
    ])
    #expect(result.counts == InputCounts(read: 7, accepted: 0, rejected: 7))
    #expect(
      result.rejects.map(\.reason) == [
        "missing purchaseToken",
        "missing startTime",
        "startTime '2026-01-01T00:00:00' is not an ISO 8601 timestamp with an offset",
        "expiryTime 'later' is not an ISO 8601 timestamp with an offset",
        "unknown currency 'XYZ'",
        "amount '1 units 500000000 nanos' has more digits than JPY allows (0 after the point)",
        "not valid JSON: expected a member name, found 'o' at byte 1",
      ])
  }
}

/// Installments base plans: `autoRenewingPlan.installmentDetails` (docs/rules.md#commitment-plans).
@Suite struct PlayInstallmentImportTests {
  static let line = line(initial: "12")

  static func line(initial: String) -> String {
    """
    {"purchaseToken":"tok-i","startTime":"2026-09-01T00:00:00Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE",\
    "lineItems":[{"productId":"pro","expiryTime":"2026-12-01T00:00:00Z","latestSuccessfulOrderId":"GPA.3..1",\
    "autoRenewingPlan":{"autoRenewEnabled":true,"recurringPrice":{"currencyCode":"EUR","units":"4","nanos":990000000},\
    "installmentDetails":{"initialCommittedPaymentsCount":\(initial),"remainingCommittedPaymentsCount":9,\
    "subsequentCommittedPaymentsCount":12,"pendingCancellation":{}}},\
    "offerDetails":{"basePlanId":"yearly-installments"}}]}
    """
  }

  @Test func readsTheCommittedPayments() throws {
    let dir = try TempDir()
    let path = try dir.write("subs.jsonl", Self.line)
    let result = try runImporter(PlaySubscriptionImporter(), path)
    let t = try #require(result.rows.first)
    #expect(t.productId == "pro:yearly-installments")
    #expect(
      t.commitment
        == Commitment(paymentNumber: 3, totalPayments: 12, remainingPayments: 9, pendingCancellation: true))
    // The packed import reads the same (the fast path leaves such a line to the full one).
    let files = [("subscriptions", path)]
    let packed = try ImportComparison.packed(files, chunkBytes: 4096, threads: 2)
    #expect(packed == (try ImportComparison.sequential(files)))
    #expect(packed.chains.first?.contains("Commitment(paymentNumber: Optional(3)") == true)
  }

  @Test func aCountOutOfRangeIsRejected() throws {
    let dir = try TempDir()
    let result = try runImporter(
      PlaySubscriptionImporter(), try dir.write("subs.jsonl", Self.line(initial: "-1")))
    #expect(
      result.rejects.map(\.reason) == [
        "installmentDetails.initialCommittedPaymentsCount '-1' is out of range (0 to 4095)"
      ])
  }
}
