/// One store notification: a row of the app's notification log (the `notifications` contract,
/// docs/contracts.md#notifications) or an entry of the store's own notification history, with what its
/// payload says once decoded (docs/notifications.md).
package struct StoreNotification: Sendable, Equatable {
  /// What the notification tells the app to do with access to the purchase it names.
  package enum Effect: Sendable, Equatable {
    /// Access should be on: a purchase, a renewal, a refund reversed.
    case grants
    /// Access should end because the store took the money back or revoked the purchase.
    case revokes
    /// Access should end because the period ended (expired, grace over, on hold, paused).
    case expires
    /// Nothing the entitlement row must show (a renewal preference changed, a price consent, a test).
    case neutral
  }

  /// The store that sent it.
  package var store: Store
  /// Apple `notificationUUID`; Play the Pub/Sub `messageId`; Stripe the event id (`evt_…`).
  package var notificationId: String
  /// Apple `notificationType` (`DID_RENEW`); Play the RTDN type's name (`SUBSCRIPTION_RENEWED`,
  /// `VOIDED_PURCHASE`).
  package var type: String
  /// Apple `subtype` (`VOLUNTARY`), where the notification has one.
  package var subtype: String?
  /// When the store made it: Apple `signedDate`, Play `eventTimeMillis`, Stripe `created`.
  package var eventAt: Instant?
  /// When the app's server received it (`received_at`); `nil` for an entry of the store's history.
  package var receivedAt: Instant?
  /// When the app processed it (`processed_at`); `nil` = never.
  package var processedAt: Instant?
  /// The purchase it is about: Apple `originalTransactionId`, Play purchase token; `nil` where it names
  /// none (a test notification).
  package var chainKey: String?
  /// The transaction it carries (Apple `transactionId` of `signedTransactionInfo`), where it carries one.
  package var transactionId: String?
  /// The product it names, where it names one.
  package var productId: String?
  /// Apple: the transaction's `expiresDate` (the end of the period a renewal grants).
  package var expiresAt: Instant?
  /// The money of the transaction it carries (Apple), in minor units of `currency`.
  package var amountMinor: Int64?
  package var currency: Currency?
  /// Production, or sandbox/test: a sandbox notification never raises a finding.
  package var production: Bool = true
  /// Where the row came from.
  package var origin: Origin

  /// Creates a notification with the fields every one has.
  package init(store: Store, notificationId: String, type: String, origin: Origin) {
    self.store = store
    self.notificationId = notificationId
    self.type = type
    self.origin = origin
  }

  /// `TYPE` or `TYPE/SUBTYPE`.
  package var typeName: String { subtype.map { "\(type)/\($0)" } ?? type }

  /// What it asks of the entitlement (docs/notifications.md#what-a-notification-asks).
  package var effect: Effect { StoreNotification.effect(store: store, type: type, subtype: subtype) }

  /// The effect of a notification type. Apple's types as App Store Server Notifications V2 names them;
  /// Play's as ``PlayNotificationType`` names the RTDN numbers.
  package static func effect(store: Store, type: String, subtype: String?) -> Effect {
    switch store {
    case .appStore:
      switch type {
      case "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED", "REFUND_REVERSED", "RENEWAL_EXTENDED",
        "ONE_TIME_CHARGE":
        return .grants
      case "REFUND", "REVOKE": return .revokes
      case "EXPIRED", "GRACE_PERIOD_EXPIRED": return .expires
      default: return .neutral
      }
    case .play:
      switch type {
      case "SUBSCRIPTION_PURCHASED", "SUBSCRIPTION_RENEWED", "SUBSCRIPTION_RECOVERED",
        "SUBSCRIPTION_RESTARTED",
        "ONE_TIME_PRODUCT_PURCHASED":
        return .grants
      case "SUBSCRIPTION_REVOKED", "VOIDED_PURCHASE": return .revokes
      case "SUBSCRIPTION_EXPIRED", "SUBSCRIPTION_ON_HOLD", "SUBSCRIPTION_PAUSED": return .expires
      default: return .neutral
      }
    case .stripe:
      // Stripe's event types (docs/notifications.md#what-a-notification-asks).
      switch type {
      case "customer.subscription.created", "customer.subscription.resumed", "invoice.paid",
        "invoice.payment_succeeded", "charge.succeeded", "payment_intent.succeeded",
        "checkout.session.completed":
        return .grants
      case "charge.refunded", "charge.dispute.closed": return .revokes
      case "customer.subscription.deleted", "customer.subscription.paused": return .expires
      default: return .neutral
      }
    }
  }
}

/// The names of Google Play's real-time developer notification types (`subscriptionNotification.
/// notificationType`, reference §2.5), by number.
package enum PlayNotificationType {
  /// `SUBSCRIPTION_RECOVERED` … for 1 …; `nil` for a number Google has not defined.
  package static func name(_ number: Int64) -> String? {
    let names: [Int64: String] = [
      1: "SUBSCRIPTION_RECOVERED", 2: "SUBSCRIPTION_RENEWED", 3: "SUBSCRIPTION_CANCELED",
      4: "SUBSCRIPTION_PURCHASED", 5: "SUBSCRIPTION_ON_HOLD", 6: "SUBSCRIPTION_IN_GRACE_PERIOD",
      7: "SUBSCRIPTION_RESTARTED", 8: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED", 9: "SUBSCRIPTION_DEFERRED",
      10: "SUBSCRIPTION_PAUSED", 11: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", 12: "SUBSCRIPTION_REVOKED",
      13: "SUBSCRIPTION_EXPIRED", 17: "SUBSCRIPTION_ITEMS_CHANGED", 18: "SUBSCRIPTION_CANCELLATION_SCHEDULED",
      19: "SUBSCRIPTION_PRICE_CHANGE_UPDATED", 20: "SUBSCRIPTION_PENDING_PURCHASE_CANCELED",
      22: "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED",
    ]
    return names[number]
  }
}

/// What the run knows of store notifications: the app's log and the store's history, and how old an
/// unprocessed or never-received notification must be to be a finding.
package struct NotificationLog: Sendable {
  /// The app's own log (the `notifications` contract).
  package var received: [StoreNotification]
  /// The store's notification history (Apple `notifications/history`; Stripe's events read from
  /// `stripe.objects`), where the run read one.
  package var history: [StoreNotification]
  /// A notification unprocessed (or, in the history, not received) for longer than this is a finding.
  package var ageMs: Int64

  /// Creates the log.
  package init(received: [StoreNotification], history: [StoreNotification] = [], ageMs: Int64 = 6 * 3_600_000)
  {
    self.received = received
    self.history = history
    self.ageMs = ageMs
  }
}
