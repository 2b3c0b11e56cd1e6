import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

/// The notification log's payloads: Apple `signedPayload` in every shape a server keeps it (verified,
/// its transaction read), Play RTDN in every shape, and what is rejected and why.
@Suite struct NotificationDecoderTests {
  typealias T = JWSVerificationTests
  let decoder = NotificationDecoder(verifier: T.testRootVerifier)

  func row(_ store: Store, _ id: String, _ payload: String) -> NotificationRow {
    NotificationRow(
      store: store, notificationId: id, receivedAt: Fx.at("2026-09-01T10:00:00Z"),
      processedAt: Fx.at("2026-09-01T10:00:05Z"), payload: payload, origin: Fx.origin)
  }

  /// A signed `ResponseBodyV2DecodedPayload` of `type` carrying the test transaction (signed too).
  func signedPayload(_ type: String, uuid: String = "5b1e7d9c-0000-4000-8000-000000000001") -> String {
    let transaction = T.jws()
    let body =
      #"{"notificationType":"\#(type)","notificationUUID":"\#(uuid)","version":"2.0","signedDate":1790000500000,"#
      + #""data":{"bundleId":"com.acme.app","environment":"Production","signedTransactionInfo":"\#(transaction)"}}"#
    return T.jws(payload: body)
  }

  @Test func anAppleNotificationInEveryShape() throws {
    let compact = signedPayload("DID_RENEW")
    for payload in [compact, "\"\(compact)\"", #"{"signedPayload":"\#(compact)"}"#, "  \(compact)\n"] {
      let decoded = try decoder.decode(row(.appStore, "5b1e7d9c-0000-4000-8000-000000000001", payload))
      #expect(decoded.notification.type == "DID_RENEW")
      #expect(decoded.notification.chainKey == "o1")
      #expect(decoded.notification.eventAt == Instant(ms: 1_790_000_500_000))
      #expect(decoded.notification.amountMinor == 499)
      #expect(decoded.notification.effect == .grants)
      #expect(decoded.record?.transactionId == "t1")
      #expect(decoded.notification.processedAt == Fx.at("2026-09-01T10:00:05Z"))
    }
  }

  @Test func anAppleNotificationThatDoesNotVerifyIsRejected() {
    let compact = signedPayload("REFUND")
    let parts = compact.split(separator: ".")
    let tampered = parts[0] + "." + parts[1] + "x." + parts[2]
    #expect(throws: RowRejection.self) { try decoder.decode(row(.appStore, "x", String(tampered))) }
    let pinnedOnly = NotificationDecoder(verifier: JWSVerifier())
    do {
      _ = try pinnedOnly.decode(row(.appStore, "5b1e7d9c-0000-4000-8000-000000000001", compact))
      Issue.record("a chain to a test root must not verify against Apple's root alone")
    } catch {
      #expect(error.reason.hasPrefix("signedPayload is not a valid JWS: untrusted chain"))
    }
  }

  @Test func theRowsIdMustBeThePayloads() {
    do {
      _ = try decoder.decode(row(.appStore, "another-id", signedPayload("DID_RENEW")))
      Issue.record("a mismatched id must be rejected")
    } catch {
      #expect(error.reason.contains("is not the payload's"))
    }
  }

  @Test func aTestNotificationCarriesNoTransaction() throws {
    let body = #"{"notificationType":"TEST","notificationUUID":"u-1","signedDate":1790000500000}"#
    let decoded = try decoder.decode(row(.appStore, "u-1", T.jws(payload: body)))
    #expect(decoded.record == nil)
    #expect(decoded.notification.chainKey == nil)
  }

  func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

  @Test func aPlayNotificationInEveryShape() throws {
    let developer =
      #"{"version":"1.0","packageName":"com.acme.app","eventTimeMillis":"1790000000000","#
      + #""subscriptionNotification":{"version":"1.0","notificationType":13,"purchaseToken":"tok-1"}}"#
    let data = base64(developer)
    let push =
      #"{"message":{"data":"\#(data)","messageId":"m-77","publishTime":"2026-09-01T10:00:00Z"},"subscription":"s"}"#
    let message = #"{"data":"\#(data)","messageId":"m-77"}"#
    for payload in [push, message] {
      let decoded = try decoder.decode(row(.play, "m-77", payload))
      #expect(decoded.notification.type == "SUBSCRIPTION_EXPIRED")
      #expect(decoded.notification.chainKey == "tok-1")
      #expect(decoded.notification.eventAt == Instant(ms: 1_790_000_000_000))
      #expect(decoded.notification.effect == .expires)
    }
    // The decoded DeveloperNotification, or its base64, takes the row's id.
    for payload in [developer, data] {
      let decoded = try decoder.decode(row(.play, "m-78", payload))
      #expect(decoded.notification.notificationId == "m-78")
      #expect(decoded.notification.type == "SUBSCRIPTION_EXPIRED")
    }
  }

  @Test func aPlayVoidedNotificationIsAVoidRecord() throws {
    let developer =
      #"{"version":"1.0","packageName":"com.acme.app","eventTimeMillis":"1790000000000","#
      + #""voidedPurchaseNotification":{"purchaseToken":"tok-2","orderId":"GPA.1234-5678-9012-34567..2","#
      + #""productType":1,"refundType":1}}"#
    let decoded = try decoder.decode(row(.play, "m-9", developer))
    #expect(decoded.notification.effect == .revokes)
    #expect(decoded.record?.kind == .void)
    #expect(decoded.record?.transactionId == "GPA.1234-5678-9012-34567..2")
    #expect(decoded.record?.at == Instant(ms: 1_790_000_000_000))
  }

  @Test func badPlayPayloadsAreRejectedWithTheReason() {
    let cases: [(String, String)] = [
      ("!!!", "data is not base64"),
      (base64("not json"), "data is not base64 of JSON"),
      (#"{"version":"1.0","packageName":"p"}"#, "holds no notification"),
      (#"{"subscriptionNotification":{"notificationType":2}}"#, "missing purchaseToken"),
    ]
    for (payload, reason) in cases {
      do {
        _ = try decoder.decode(row(.play, "m", payload))
        Issue.record("\(payload) must be rejected")
      } catch {
        #expect(error.reason.contains(reason), "\(payload): \(error.reason)")
      }
    }
  }
}
