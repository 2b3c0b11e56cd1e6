package import StoreReconCore
package import StoreReconIO

/// Decodes the payload of a notification-log row (docs/notifications.md): an App Store Server
/// Notification V2 `signedPayload` — verified as every App Store JWS is (docs/signatures.md), with the
/// transaction in `data.signedTransactionInfo` read as the App Store importer reads a line — or a Google
/// Play real-time developer notification (a Pub/Sub push body or message, its base64 `data`, or the
/// decoded `DeveloperNotification`), or a Stripe event (the webhook's body, ``StripeEvent``). Also reads the entries of the store's notification history.
package struct NotificationDecoder {
  let checker: JWSChecker
  /// The span a timestamp must fall in (``StoreTimeWindow``, from the run's T).
  let window: StoreTimeWindow

  /// A decoder verifying Apple's JWS with `verifier`.
  package init(verifier: JWSVerifier, window: StoreTimeWindow = .standalone) {
    checker = JWSChecker(verifier)
    self.window = window
  }

  /// The row decoded, or why it is rejected.
  package func decode(_ row: NotificationRow) throws(RowRejection) -> DecodedNotification {
    var decoded: DecodedNotification
    switch row.store {
    case .appStore: decoded = try apple(row.payload, origin: row.origin)
    case .play: decoded = try play(row.payload, origin: row.origin)
    case .stripe:
      decoded = DecodedNotification(
        notification: try StripeEvent.notification(
          try parse(row.payload, what: "payload"), origin: row.origin, window: window),
        record: nil, origin: row.origin)
    }
    if decoded.notification.notificationId.isEmpty {
      decoded.notification.notificationId = row.notificationId
    } else if decoded.notification.notificationId != row.notificationId {
      throw RowRejection(
        "notification_id '\(RawText.truncated(row.notificationId))' is not the payload's "
          + "'\(RawText.truncated(decoded.notification.notificationId))'")
    }
    decoded.notification.receivedAt = row.receivedAt
    decoded.notification.processedAt = row.processedAt
    return decoded
  }

  // MARK: App Store

  /// An App Store notification: the `signedPayload` JWS, bare, as a JSON string, or in the webhook's
  /// body `{"signedPayload": …}`.
  func apple(_ payload: String, origin: Origin) throws(RowRejection) -> DecodedNotification {
    let text = payload.trimmingSpaces
    var compact = text
    if text.hasPrefix("{") || text.hasPrefix("\"") {
      let value = try parse(text, what: "payload")
      if let string = value.stringValue {
        compact = string
      } else if let inner = value["signedPayload"] {
        guard let string = inner.stringValue else { throw RowRejection("signedPayload is not a string") }
        compact = string
      } else {
        throw RowRejection("payload holds no signedPayload")
      }
    }
    let body = try jws(compact, field: "signedPayload")
    return try appleNotification(body, origin: origin)
  }

  /// The decoded `ResponseBodyV2DecodedPayload` as a notification, with its transaction.
  func appleNotification(_ body: JSONValue, origin: Origin) throws(RowRejection) -> DecodedNotification {
    let type = try body.requiredText("notificationType")
    var n = StoreNotification(
      store: .appStore, notificationId: try body.optionalText("notificationUUID") ?? "", type: type,
      origin: origin)
    n.subtype = try body.optionalText("subtype")
    n.eventAt = try body.optionalMillis("signedDate", within: window)
    var record: StoreTransaction?
    if let data = try body.optionalObject("data") {
      if let environment = try data.optionalText("environment") { n.production = environment == "Production" }
      if let signed = data["signedTransactionInfo"] {
        guard let compact = signed.stringValue else {
          throw RowRejection("signedTransactionInfo is not a string")
        }
        let payload = try jws(compact, field: "signedTransactionInfo")
        let transaction = try AppStoreTransactionImporter.transaction(
          from: payload, origin: origin, window: window)
        n.chainKey = transaction.chainKey
        n.transactionId = transaction.transactionId
        n.productId = transaction.productId
        n.expiresAt = transaction.expiresAt
        n.currency = transaction.currency
        n.amountMinor = transaction.currency == nil ? nil : transaction.amountMinor
        n.production = transaction.environment == .production
        record = transaction
      }
    }
    if let summary = try body.optionalObject("summary") {
      n.productId = try summary.optionalText("productId")
    }
    return DecodedNotification(notification: n, record: record, origin: origin)
  }

  /// One entry of the App Store notification history (`notificationHistory[]`: `signedPayload` and
  /// `sendAttempts`), as the fetch writes them one a line, or a bare `signedPayload`.
  package func historyEntry(_ line: String, origin: Origin) throws(RowRejection) -> DecodedNotification {
    try apple(line, origin: origin)
  }

  // MARK: Google Play

  /// A Play real-time developer notification in any of the shapes a server keeps it.
  func play(_ payload: String, origin: Origin) throws(RowRejection) -> DecodedNotification {
    let text = payload.trimmingSpaces
    var messageId = ""
    var developer: JSONValue
    if text.hasPrefix("{") {
      let value = try parse(text, what: "payload")
      let message = try value.optionalObject("message") ?? value
      if let data = try message.optionalText("data") {
        let camel = try message.optionalText("messageId")
        let snake = try message.optionalText("message_id")
        messageId = camel ?? snake ?? ""
        developer = try base64JSON(data)
      } else {
        developer = value
      }
    } else {
      developer = try base64JSON(text)
    }
    var decoded = try playNotification(developer, origin: origin)
    decoded.notification.notificationId = messageId
    return decoded
  }

  /// The decoded `DeveloperNotification`.
  func playNotification(_ d: JSONValue, origin: Origin) throws(RowRejection) -> DecodedNotification {
    guard case .object = d else {
      throw RowRejection("expected a DeveloperNotification object, found \(d.brief)")
    }
    let at = try d.optionalMillis("eventTimeMillis", within: window)
    var n: StoreNotification
    var record: StoreTransaction?
    if let s = try d.optionalObject("subscriptionNotification") {
      let number = try s.optionalInt64("notificationType") ?? -1
      let type = PlayNotificationType.name(number) ?? "SUBSCRIPTION_NOTIFICATION_\(number)"
      n = StoreNotification(store: .play, notificationId: "", type: type, origin: origin)
      n.chainKey = try s.requiredText("purchaseToken")
      n.productId = try s.optionalText("subscriptionId")
    } else if let o = try d.optionalObject("oneTimeProductNotification") {
      let number = try o.optionalInt64("notificationType") ?? -1
      let type =
        number == 1
        ? "ONE_TIME_PRODUCT_PURCHASED"
        : number == 2 ? "ONE_TIME_PRODUCT_CANCELED" : "ONE_TIME_PRODUCT_\(number)"
      n = StoreNotification(store: .play, notificationId: "", type: type, origin: origin)
      n.chainKey = try o.requiredText("purchaseToken")
      n.productId = try o.optionalText("sku")
    } else if let v = try d.optionalObject("voidedPurchaseNotification") {
      n = StoreNotification(store: .play, notificationId: "", type: "VOIDED_PURCHASE", origin: origin)
      n.chainKey = try v.requiredText("purchaseToken")
      guard let at else {
        throw RowRejection("missing eventTimeMillis (a voided purchase needs its instant)")
      }
      var voided = StoreTransaction(
        store: .play, kind: .void, chainKey: try v.requiredText("purchaseToken"),
        transactionId: try v.requiredText("orderId"), productId: "", at: at, origin: origin)
      voided.purchaseToken = n.chainKey
      record = voided
    } else if d["testNotification"] != nil {
      n = StoreNotification(store: .play, notificationId: "", type: "TEST", origin: origin)
      n.production = false
    } else {
      throw RowRejection("DeveloperNotification holds no notification this job knows")
    }
    n.eventAt = at
    return DecodedNotification(notification: n, record: record, origin: origin)
  }

  // MARK: Helpers

  func parse(_ text: String, what: String) throws(RowRejection) -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw RowRejection("\(what) is not valid JSON: \(error)")
    }
  }

  /// The payload of compact JWS `compact` in `field`, verified (unless signatures are off) and parsed.
  func jws(_ compact: String, field: String) throws(RowRejection) -> JSONValue {
    let bytes: [UInt8]
    do {
      bytes = try checker.payload(compact)
    } catch {
      throw RowRejection("\(field) is not a valid JWS: \(error.reason)")
    }
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw RowRejection("\(field) is not a valid JWS: JWS payload: \(error)")
    }
  }

  /// Base64 (standard or url-safe) holding a JSON object.
  func base64JSON(_ text: String) throws(RowRejection) -> JSONValue {
    guard let bytes = Base64URL.decode(text) else { throw RowRejection("data is not base64") }
    if let problem = UTF8Validation.problem(in: bytes) {
      throw RowRejection("data: \(problem.reason)")
    }
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw RowRejection("data is not base64 of JSON: \(error)")
    }
  }
}

extension String {
  /// The text without leading and trailing spaces, tabs and line breaks.
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeLast() }
    return String(s)
  }
}
