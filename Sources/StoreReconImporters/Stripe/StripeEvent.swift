package import StoreReconCore
package import StoreReconIO

/// A Stripe event (`evt_…`) as a store notification of store `stripe`: a row of the app's notification
/// log whose payload is the webhook's body, or an event read from `stripe.objects`
/// (docs/rules.md#stripe-webhook-events).
package enum StripeEvent {
  /// The event `value` as a notification: its id, type, `created` and `livemode`, and the key its
  /// `data.object` names (a subscription id, else a payment intent, a charge or an invoice id, which
  /// the run resolves to its chain through ``StripeImport/aliases``).
  package static func notification(_ value: JSONValue, origin: Origin, window: StoreTimeWindow)
    throws(RowRejection) -> StoreNotification
  {
    try notification(of: value, origin: origin, window: window)
  }

  /// ``notification(_:origin:window:)`` of a parsed tree or of a line read in place.
  static func notification<V: StripeJSON>(of value: V, origin: Origin, window: StoreTimeWindow)
    throws(RowRejection) -> StoreNotification
  {
    guard value.isObject else { throw RowRejection("expected a Stripe event, found \(value.brief)") }
    guard try value.optionalText("object") == "event" else {
      throw RowRejection("not a Stripe event (its \"object\" is not \"event\")")
    }
    var n = StoreNotification(
      store: .stripe, notificationId: try value.requiredText("id"), type: try value.requiredText("type"),
      origin: origin)
    n.eventAt = try StripeObject.instant(value, "created", within: window)
    n.production = try value.optionalBool("livemode") ?? true
    if let object = try value.optionalObject("data")?.optionalObject("object") {
      n.chainKey = try key(of: object)
    }
    return n
  }

  /// The key an event's object names: a subscription's own id; an invoice's subscription (either API
  /// shape), else its payment; a charge's payment intent, else its id; a refund's or dispute's payment
  /// intent, else its charge; a payment intent's id; a checkout session's subscription, else its
  /// payment intent. `nil` for objects that name no purchase (a customer, a price).
  static func key<V: StripeJSON>(of object: V) throws(RowRejection) -> String? {
    let id = try object.optionalText("id")
    var candidates: [(V?, String)] = []
    switch try object.optionalText("object") ?? "" {
    case "subscription", "payment_intent":
      return id
    case "invoice":
      let details = try object.optionalObject("parent")?.optionalObject("subscription_details")
      candidates = [
        (object, "subscription"), (details, "subscription"), (object, "payment_intent"), (object, "charge"),
      ]
      return try first(candidates) ?? id
    case "charge":
      return try first([(object, "payment_intent")]) ?? id
    case "refund", "dispute":
      candidates = [(object, "payment_intent"), (object, "charge")]
    case "checkout.session":
      candidates = [(object, "subscription"), (object, "payment_intent")]
    case "invoice_payment":
      let payment = try object.optionalObject("payment")
      candidates = [(payment, "payment_intent"), (payment, "charge"), (object, "invoice")]
    default:
      return nil
    }
    return try first(candidates)
  }

  /// The first of `references` (an object and the key of an id in it) that is set.
  static func first<V: StripeJSON>(_ references: [(V?, String)]) throws(RowRejection) -> String? {
    for (object, key) in references {
      guard let object else { continue }
      if let id = try StripeObject.reference(object, key) { return id }
    }
    return nil
  }
}
