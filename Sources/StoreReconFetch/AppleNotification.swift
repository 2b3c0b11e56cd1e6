import StoreReconIO
import StoreReconPlatform
import StoreReconSettings

/// One App Store Server Notification from the notification history, as a line of
/// `apple/notifications.jsonl`:
///
/// ```json
/// {"notificationUUID":"…","notificationType":"DID_RENEW","subtype":"","signedDate":1764547200000,
///  "originalTransactionId":"…","transactionId":"…","firstSendAttemptResult":"SUCCESS",
///  "sendAttempts":[{"attemptDate":1764547201000,"sendAttemptResult":"SUCCESS"}],"signedPayload":"…"}
/// ```
///
/// `subtype`, `originalTransactionId` and `transactionId` are `""` when the notification has none (a
/// `TEST` or a `SUMMARY`); `firstSendAttemptResult` is `""` when Apple lists no attempt.
struct AppleNotification: Equatable {
  var uuid: String
  var type: String
  var subtype: String
  var signedDate: Int64
  var originalTransactionId: String
  var transactionId: String
  /// `[(attemptDate ms, sendAttemptResult)]` in Apple's order.
  var attempts: [(date: Int64, result: String)]
  var signedPayload: String

  /// The file's path under `fetch.into`.
  static let path = "apple/notifications.jsonl"

  /// A notification history item (`{"signedPayload", "sendAttempts"}`) or a line of the file; `nil` when
  /// the payload is not a JWS of a notification with a UUID and a type, or its `signedTransactionInfo` is
  /// not a JWS.
  init?(_ item: JSONValue) {
    guard let signed = item["signedPayload"]?.stringValue, let payload = try? JWS.decodedPayload(signed),
      let uuid = payload["notificationUUID"]?.stringValue, let type = payload["notificationType"]?.stringValue
    else { return nil }
    self.uuid = uuid
    self.type = type
    subtype = payload["subtype"]?.stringValue ?? ""
    signedDate = payload["signedDate"]?.int64Value ?? 0
    signedPayload = signed
    originalTransactionId = ""
    transactionId = ""
    if let info = payload["data"]?["signedTransactionInfo"]?.stringValue {
      guard let transaction = try? JWS.decodedPayload(info) else { return nil }
      originalTransactionId = transaction["originalTransactionId"]?.text ?? ""
      transactionId = transaction["transactionId"]?.text ?? ""
    }
    attempts = (item["sendAttempts"]?.arrayValue ?? []).map {
      ($0["attemptDate"]?.int64Value ?? 0, $0["sendAttemptResult"]?.stringValue ?? "")
    }
  }

  static func == (a: AppleNotification, b: AppleNotification) -> Bool { a.line == b.line }

  /// The line (without its newline).
  var line: String {
    let sends = attempts.map {
      JSONText.object([("attemptDate", .int($0.date)), ("sendAttemptResult", .string($0.result))])
    }
    return JSONText.object([
      ("notificationUUID", .string(uuid)), ("notificationType", .string(type)), ("subtype", .string(subtype)),
      ("signedDate", .int(signedDate)), ("originalTransactionId", .string(originalTransactionId)),
      ("transactionId", .string(transactionId)),
      ("firstSendAttemptResult", .string(attempts.first?.result ?? "")),
      ("sendAttempts", .array(sends)),
      ("signedPayload", .string(signedPayload)),
    ]).compact()
  }

  /// The notifications of a previous fetch's file, by UUID; a line that does not read is a data error.
  static func load(_ file: [UInt8]?) throws(FetchError) -> [String: AppleNotification] {
    guard let file else { return [:] }
    var out: [String: AppleNotification] = [:]
    var number = 0
    for line in file.split(separator: 0x0A, omittingEmptySubsequences: false) {
      number += 1
      guard !line.isEmpty else { continue }
      guard let value = try? JSONParser.parse(Array(line)), let notification = AppleNotification(value) else {
        throw FetchError(
          .dataError, "\(path) line \(number) is not a notification (delete the file to fetch anew)")
      }
      out[notification.uuid] = notification
    }
    return out
  }

  /// The file of `notifications`, ordered by signed date and UUID.
  static func serialized(_ notifications: [String: AppleNotification]) -> [UInt8] {
    let ordered = notifications.values.sorted { ($0.signedDate, $0.uuid) < ($1.signedDate, $1.uuid) }
    return Array(ordered.map { $0.line + "\n" }.joined().utf8)
  }
}
