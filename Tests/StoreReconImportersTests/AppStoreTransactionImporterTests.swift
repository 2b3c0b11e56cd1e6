import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct AppStoreTransactionImporterTests {
  static let full = """
    {"transactionId":"23456","originalTransactionId":"12345","productId":"com.acme.pro.monthly",\
    "purchaseDate":1698148900000,"originalPurchaseDate":1698148800000,"expiresDate":1698149000000,\
    "type":"Auto-Renewable Subscription","appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138",\
    "inAppOwnershipType":"FAMILY_SHARED","revocationReason":1,"revocationDate":1698148950000,\
    "revocationType":"REFUND_PRORATED","revocationPercentage":50000,"isUpgraded":true,"offerType":2,\
    "offerIdentifier":"abc.123","environment":"Production","transactionReason":"RENEWAL","price":10990,\
    "currency":"USD","offerDiscountType":"PAY_AS_YOU_GO","unknownField":{"nested":[1,2]}}
    """

  /// A compact JWS with `payload` as its payload and a fake signature.
  static func jws(_ payload: String) -> String {
    func b64(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    return b64(#"{"alg":"ES256","kid":"Apple_Xcode_Key"}"#) + "." + b64(payload) + ".c2lnbmF0dXJl"
  }

  func importLines(_ lines: [String]) throws -> ImportResult<StoreTransaction> {
    let dir = try TempDir()
    let path = try dir.write("apple.jsonl", lines.joined(separator: "\n") + "\n")
    // Parsing only: the JWS lines here carry made-up signatures (JWSVerificationTests checks them).
    return try runImporter(
      AppStoreTransactionImporter(verifier: JWSVerifier(mode: .off)), path, name: "apple.jsonl")
  }

  @Test func mapsEveryField() throws {
    let result = try importLines([Self.full])
    #expect(result.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
    let t = try #require(result.rows.first)
    #expect(t.store == .appStore)
    #expect(t.kind == .purchase)
    #expect(t.chainKey == "12345")
    #expect(t.transactionId == "23456")
    #expect(t.productId == "com.acme.pro.monthly")
    #expect(t.at == Instant(ms: 1_698_148_900_000))
    #expect(t.originalAt == Instant(ms: 1_698_148_800_000))
    #expect(t.expiresAt == Instant(ms: 1_698_149_000_000))
    #expect(t.amountMinor == 1099)
    #expect(t.currency == Currency.named("USD"))
    #expect(t.productTypeRaw == "Auto-Renewable Subscription")
    #expect(t.productType == .autoRenewable)
    #expect(!t.isTrial)
    #expect(t.environment == .production)
    #expect(t.familyShared)
    #expect(t.revokedAt == Instant(ms: 1_698_148_950_000))
    #expect(t.revocationType == "REFUND_PRORATED")
    #expect(t.revocationReason == 1)
    #expect(t.revocationPercentMilli == 50000)
    #expect(t.isUpgraded)
    #expect(t.accountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    #expect(t.offerId == "abc.123")
    #expect(t.reason == "RENEWAL")
    #expect(t.origin == Origin(file: 3, line: 1))
  }

  @Test func minimalTransactionHasDefaults() throws {
    let line =
      #"{"originalTransactionId":"1","transactionId":"2","productId":"p","purchaseDate":1698148900005,"price":0,"currency":"JPY"}"#
    let t = try #require(try importLines([line]).rows.first)
    #expect(t.amountMinor == 0)
    #expect(t.expiresAt == nil)
    #expect(t.revokedAt == nil)
    #expect(!t.isUpgraded)
    #expect(!t.familyShared)
    #expect(t.environment == .production)
    #expect(t.productTypeRaw == "")
  }

  @Test func freeTrialIsRecognised() throws {
    let base =
      #""originalTransactionId":"1","transactionId":"2","productId":"p","purchaseDate":1698148900005,"currency":"USD""#
    let result = try importLines([
      "{\(base),\"price\":0,\"offerType\":1}",
      "{\(base),\"price\":0,\"offerDiscountType\":\"FREE_TRIAL\"}",
      "{\(base),\"price\":990,\"offerType\":1}",
      "{\(base),\"price\":0,\"offerType\":2}",
    ])
    #expect(result.rows.map(\.isTrial) == [true, true, false, false])
  }

  @Test func environmentsOtherThanProductionAreSandbox() throws {
    let base =
      #""originalTransactionId":"1","transactionId":"2","productId":"p","purchaseDate":1698148900005,"price":1000,"currency":"USD""#
    let result = try importLines(
      ["Production", "Sandbox", "Xcode", "LocalTesting"].map { "{\(base),\"environment\":\"\($0)\"}" })
    #expect(result.rows.map(\.environment) == [.production, .sandbox, .sandbox, .sandbox])
  }

  @Test func fractionalMillisecondsAndStringIntegers() throws {
    let line = """
      {"originalTransactionId":12345,"transactionId":"2","productId":"p","purchaseDate":1697679936049.7297,\
      "expiresDate":"1697680236049","price":"4990","currency":"EUR","revocationPercentage":"25000"}
      """
    let t = try #require(try importLines([line]).rows.first)
    #expect(t.at == Instant(ms: 1_697_679_936_050))
    #expect(t.expiresAt == Instant(ms: 1_697_680_236_049))
    #expect(t.chainKey == "12345")
    #expect(t.amountMinor == 499)
    #expect(t.revocationPercentMilli == 25000)
  }

  @Test func jwsLinesAreDecoded() throws {
    let jws = Self.jws(Self.full)
    let result = try importLines([
      jws,
      "\"\(jws)\"",
      "{\"signedTransactionInfo\":\"\(jws)\"}",
      "{\"data\":{\"environment\":\"Production\",\"signedTransactionInfo\":\"\(jws)\"}}",
      "{\"signedPayload\":\"\(Self.jws("{\"notificationType\":\"REFUND\",\"data\":{\"signedTransactionInfo\":\"\(jws)\"}}"))\"}",
    ])
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 5, accepted: 5, rejected: 0))
    #expect(result.rows.allSatisfy { $0.chainKey == "12345" && $0.amountMinor == 1099 })
    #expect(result.rows.map(\.origin.line) == [1, 2, 3, 4, 5])
  }

  @Test func blankLinesAreSkippedAndNotCounted() throws {
    let result = try importLines(["", Self.full, "   ", "", Self.full])
    #expect(result.counts == InputCounts(read: 2, accepted: 2, rejected: 0))
    #expect(result.rows.map(\.origin.line) == [2, 5])
  }

  @Test func everyRejectionHasItsReason() throws {
    func line(_ fields: String) -> String {
      "{\"transactionId\":\"2\",\"productId\":\"p\",\"purchaseDate\":1698148900005,\(fields)}"
    }
    let result = try importLines([
      line(#""price":1000,"currency":"USD""#),
      line(#""originalTransactionId":"1","price":4999,"currency":"EUR""#),
      line(#""originalTransactionId":"1","price":4990,"currency":"XYZ""#),
      line(#""originalTransactionId":"1","currency":"USD""#),
      line(#""originalTransactionId":"1","price":1000"#),
      line(#""originalTransactionId":"1","price":10.5,"currency":"USD""#),
      line(#""originalTransactionId":"1","price":1000,"currency":"USD","expiresDate":"soon""#),
      #"{"originalTransactionId":"1","transactionId":"2","productId":"p","price":1000,"currency":"USD"}"#,
      "{\"originalTransactionId\": \"1\",",
      "[1,2]",
      "{\"signedPayload\":\"\(Self.jws(#"{"notificationType":"TEST","data":{"environment":"Sandbox"}}"#))\"}",
      "not.a.jws!",
      line(#""originalTransactionId":"1","price":-990,"currency":"USD""#),
      line(#""originalTransactionId":"1","price":990,"currency":"USD","expiresDate":4102444800000"#),
      Self.full,
    ])
    #expect(result.counts == InputCounts(read: 15, accepted: 2, rejected: 13))
    // No price at all: an unpriced charge, accepted (it proves the purchase).
    #expect(result.rows.first?.currency == nil)
    #expect(result.rows.first?.amountMinor == 0)
    #expect(
      result.rejects.map(\.reason) == [
        "missing originalTransactionId",
        "amount '4.999' has more digits than EUR allows (2 after the point)",
        "unknown currency 'XYZ'",
        "missing currency",
        "price '10.5' is not a whole number of milliunits",
        "expiresDate 'soon' is not a Unix time in milliseconds",
        "missing purchaseDate",
        "not valid JSON: expected a member name, found end of input at byte 30",
        "expected a transaction object or a JWS, found an array",
        "notification TEST carries no transaction",
        "not valid JSON: unexpected 'n' at byte 0",
        "price '-990' is negative",
        "expiresDate 2100-01-01T00:00:00.000Z is more than 10 years after the report date",
      ])
    #expect(result.rejects.map(\.line) == [1, 2, 3] + Array(5...14))
    #expect(result.rejects.allSatisfy { $0.file == "apple.jsonl" })
    #expect(result.rejects[1].raw.contains("\"price\":4999"))
  }

  @Test func longRawLinesAreTruncated() throws {
    let padding = String(repeating: "x", count: 2000)
    let result = try importLines(["{\"transactionId\":\"2\",\"note\":\"\(padding)\"}"])
    let reject = try #require(result.rejects.first)
    #expect(reject.raw.utf8.count <= RawText.limit + 3)
    #expect(reject.raw.hasSuffix("…"))
  }

  @Test func missingFileThrows() {
    #expect(throws: InputError.notFound(path: "gone.jsonl")) {
      _ = try runImporter(AppStoreTransactionImporter(), "/nonexistent/gone.jsonl", name: "gone.jsonl")
    }
  }

  // MARK: - Shared samples (Apple's App Store Server Library test data)

  /// Reads a pretty-printed sample, compacts it to one line and imports it.
  func importSample(_ name: String) throws -> ImportResult<StoreTransaction> {
    let data = try Data(contentsOf: URL(fileURLWithPath: Samples.path("apple-jws/\(name)")))
    let object = try JSONSerialization.jsonObject(with: data)
    let compact = try JSONSerialization.data(withJSONObject: object)
    return try importLines([String(decoding: compact, as: UTF8.self)])
  }

  @Test(.enabled(if: Samples.available, "../shared/samples is absent: Apple sample tests skipped"))
  func sampleSignedTransaction() throws {
    let result = try importSample("signedTransaction.json")
    #expect(result.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
    let t = try #require(result.rows.first)
    #expect(t.chainKey == "12345")
    #expect(t.transactionId == "23456")
    #expect(t.productId == "com.example.product")
    #expect(t.currency?.code == "USD")
    #expect(t.amountMinor == 1099)
    #expect(t.at == Instant(ms: 1_698_148_900_000))
    #expect(t.originalAt == Instant(ms: 1_698_148_800_000))
    #expect(t.expiresAt == Instant(ms: 1_698_149_000_000))
    #expect(t.revokedAt == Instant(ms: 1_698_148_950_000))
    #expect(t.revocationReason == 1)
    #expect(t.isUpgraded)
    #expect(t.environment == .sandbox)
    #expect(!t.familyShared)
    #expect(t.accountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    #expect(t.offerId == "abc.123")
    #expect(t.reason == "PURCHASE")
    #expect(!t.isTrial)
  }

  @Test(.enabled(if: Samples.available, "../shared/samples is absent: Apple sample tests skipped"))
  func sampleSignedTransactionWithRevocation() throws {
    let t = try #require(try importSample("signedTransactionWithRevocation.json").rows.first)
    #expect(t.revocationType == "REFUND_PRORATED")
    #expect(t.revocationPercentMilli == 50000)
    #expect(t.revokedAt == Instant(ms: 1_698_148_950_000))
    #expect(t.amountMinor == 1099)
  }

  @Test(.enabled(if: Samples.available, "../shared/samples is absent: Apple sample tests skipped"))
  func sampleMockTestNotification() throws {
    let compact = try String(
      contentsOfFile: Samples.path("apple-jws/mock-testNotification.jws"), encoding: .utf8
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    let payload = try JWS.decodedPayload(compact)
    #expect(payload["notificationType"]?.stringValue == "TEST")
    #expect(payload["data"]?["environment"]?.stringValue == "Sandbox")
    #expect(payload["signedDate"]?.int64Value == 1_681_314_324_000)
    // A TEST notification carries no transaction: the importer rejects it with that reason.
    let result = try importLines([compact])
    #expect(result.counts == InputCounts(read: 1, accepted: 0, rejected: 1))
    #expect(result.rejects.first?.reason == "notification TEST carries no transaction")
  }
}

/// The App Store's monthly subscription with a 12-month commitment: `billingPlanType` and
/// `commitmentInfo` (docs/rules.md#commitment-plans).
@Suite struct AppStoreCommitmentImportTests {
  static func line(_ plan: String, number: String = "3") -> String {
    """
    {"transactionId":"t3","originalTransactionId":"o1","productId":"com.acme.pro.yearly",\
    "purchaseDate":1793700000000,"expiresDate":1796378400000,"type":"Auto-Renewable Subscription",\
    "environment":"Production","transactionReason":"RENEWAL","price":9990,"currency":"EUR",\
    "billingPlanType":"\(plan)","commitmentInfo":{"billingPeriodNumber":\(number),\
    "commitmentExpiresDate":1817460000000,"commitmentPrice":119880,"totalBillingPeriods":12}}
    """
  }

  func importLines(_ lines: [String], in dir: TempDir) throws -> (ImportResult<StoreTransaction>, String) {
    let path = try dir.write("apple.jsonl", lines.joined(separator: "\n") + "\n")
    let result = try runImporter(AppStoreTransactionImporter(verifier: JWSVerifier(mode: .off)), path)
    return (result, path)
  }

  @Test func readsWhereThePaymentStandsInItsCommitment() throws {
    let dir = try TempDir()
    let (result, path) = try importLines([Self.line("MONTHLY")], in: dir)
    let t = try #require(result.rows.first)
    #expect(
      t.commitment
        == Commitment(
          paymentNumber: 3, totalPayments: 12, remainingPayments: 9, endsAt: Instant(ms: 1_817_460_000_000)))
    #expect(t.amountMinor == 999)
    // The packed import (whose fast path leaves such a line to the full path) reads the same.
    let files = [("apple", path)]
    #expect(
      try ImportComparison.packed(files, chunkBytes: 4096, threads: 2) == ImportComparison.sequential(files))
  }

  @Test func billedUpFrontIsNoCommitmentAndABadNumberIsRejected() throws {
    let upFront =
      #"{"transactionId":"u1","originalTransactionId":"u1","productId":"p","purchaseDate":1793700000000,"#
      + #""price":0,"currency":"EUR","billingPlanType":"BILLED_UPFRONT"}"#
    let dir = try TempDir()
    let (result, _) = try importLines([upFront, Self.line("MONTHLY", number: "13")], in: dir)
    #expect(result.rows.map(\.commitment) == [nil])
    #expect(
      result.rejects.map(\.reason) == ["commitmentInfo.billingPeriodNumber 13 is past totalBillingPeriods 12"]
    )
  }
}
