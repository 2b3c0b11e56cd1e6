import Foundation
import StoreReconCore
import StoreReconIO
import StoreReconImporters

/// The `notifications` target: a notification log row's payload (the first byte picks the store), decoded
/// with signatures off (so the fuzzer reaches past the JWS header) and verified: never a crash; the
/// same bytes decode the same way twice; a decoded notification has a type and, where it carries a
/// record, a record of its store; what verifies also decodes with signatures off, to the same.
extension FuzzTargets {
  static func notifications(_ data: [UInt8]) {
    guard let first = data.first else { return }
    let payload = String(decoding: data.dropFirst(), as: UTF8.self)
    let row = NotificationRow(
      store: first & 1 == 0 ? .appStore : .play, notificationId: first & 1 == 0 ? "u" : "m",
      receivedAt: Instant(ms: 1_790_000_000_000),
      processedAt: nil, payload: payload, origin: Origin(file: 0, line: 1))
    let open = NotificationDecoder(verifier: JWSVerifier(mode: .off))
    let decoded = Result { () throws(RowRejection) in try open.decode(row) }
    let again = Result { () throws(RowRejection) in try open.decode(row) }
    switch (decoded, again) {
    case (.success(let a), .success(let b)):
      if a.notification != b.notification { fail("notifications", "two decodings differ") }
      if a.notification.type.isEmpty { fail("notifications", "a notification without a type") }
      if let record = a.record, record.store != row.store {
        fail("notifications", "a record of another store")
      }
    case (.failure(let a), .failure(let b)):
      if a.reason != b.reason { fail("notifications", "two rejections differ: \(a.reason) / \(b.reason)") }
    default:
      fail("notifications", "decoded once and rejected once")
    }
    let verified = Result { () throws(RowRejection) in
      try NotificationDecoder(verifier: JWSVerifier(mode: .verify)).decode(row)
    }
    if case .success(let v) = verified, case .success(let a) = decoded, v.notification != a.notification {
      fail("notifications", "verified and unverified decodings differ")
    }
  }

  /// Seeds: Play RTDN in each shape the log keeps, and App Store notifications as unsigned compact JWS.
  static var notificationSeeds: [[UInt8]] {
    func b64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    func url(_ text: String) -> String {
      b64(text).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let developer = [
      #"{"version":"1.0","packageName":"p","eventTimeMillis":"1790000000000","subscriptionNotification":{"version":"1.0","notificationType":4,"purchaseToken":"t"}}"#,
      #"{"version":"1.0","packageName":"p","eventTimeMillis":"1790000000000","voidedPurchaseNotification":{"purchaseToken":"t","orderId":"GPA.1-2-3..1","productType":1,"refundType":1}}"#,
      #"{"version":"1.0","packageName":"p","eventTimeMillis":"1790000000000","oneTimeProductNotification":{"version":"1.0","notificationType":1,"purchaseToken":"t","sku":"s"}}"#,
      #"{"version":"1.0","packageName":"p","eventTimeMillis":"1790000000000","testNotification":{"version":"1.0"}}"#,
    ]
    var seeds: [String] = []
    for d in developer {
      seeds += [
        "\u{1}" + d, "\u{1}" + b64(d), "\u{1}" + #"{"message":{"data":"\#(b64(d))","messageId":"m"}}"#,
      ]
    }
    let transaction =
      #"{"transactionId":"1","originalTransactionId":"1","productId":"p","purchaseDate":1790000000000,"price":4990,"currency":"USD","environment":"Production","signedDate":1790000000000}"#
    let inner = url(#"{"alg":"ES256"}"#) + "." + url(transaction) + ".c2ln"
    for type in ["DID_RENEW", "REFUND", "TEST", "EXPIRED"] {
      let body =
        #"{"notificationType":"\#(type)","notificationUUID":"u","signedDate":1790000000000,"data":{"environment":"Production","signedTransactionInfo":"\#(inner)"}}"#
      let outer = url(#"{"alg":"ES256"}"#) + "." + url(body) + ".c2ln"
      seeds += ["\u{0}" + outer, "\u{0}" + #"{"signedPayload":"\#(outer)"}"#]
    }
    return seeds.map { Array($0.utf8) }
  }
}
