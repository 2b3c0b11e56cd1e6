/// One row of the `notifications` contract as read, before its payload is decoded: `store,
/// notification_id, received_at, processed_at, payload` (docs/contracts.md#notifications).
package struct NotificationRow: Sendable {
  /// `app_store` or `play`.
  package var store: Store
  /// The app's id of the notification: Apple `notificationUUID`, Play Pub/Sub `messageId`.
  package var notificationId: String
  /// When the app's server received it.
  package var receivedAt: Instant
  /// When the app processed it; `nil` = not yet.
  package var processedAt: Instant?
  /// What the store sent: Apple the `signedPayload` (or the body `{"signedPayload": …}`); Play the
  /// Pub/Sub message (push body, message, base64 `data` or the decoded `DeveloperNotification`).
  package var payload: String
  /// Where the row came from.
  package var origin: Origin

  /// Creates the row from its fields.
  package init(
    store: Store, notificationId: String, receivedAt: Instant, processedAt: Instant?, payload: String,
    origin: Origin
  ) {
    self.store = store
    self.notificationId = notificationId
    self.receivedAt = receivedAt
    self.processedAt = processedAt
    self.payload = payload
    self.origin = origin
  }
}

/// A notification row with its payload decoded: the notification, and the store record it carries
/// (Apple: the transaction in `signedTransactionInfo`; Play: a voided purchase), which the ledger reads
/// like the exports' records.
package struct DecodedNotification: Sendable {
  /// What the notification says.
  package var notification: StoreNotification
  /// The record it carries, if any.
  package var record: StoreTransaction?
  /// Where it was read (the worker's tagger keys its line).
  package var origin: Origin

  /// Creates the value.
  package init(
    notification: StoreNotification, record: StoreTransaction?, origin: Origin = Origin(file: -1, line: 0)
  ) {
    self.notification = notification
    self.record = record
    self.origin = origin
  }
}
