import StoreReconCore
import StoreReconIO

extension StripeParts {
  /// Reads a charge.
  static func charge<V: StripeJSON>(_ v: V, _ object: Head) throws(RowRejection) -> Charge {
    let currency = try currency(v)
    let status = try v.optionalText("status") ?? ""
    let paid = try v.optionalBool("paid") ?? (status == "succeeded")
    guard let created = try StripeObject.instant(v, "created", within: object.window) else {
      throw RowRejection("missing created")
    }
    let captured = try v.optionalInt64("amount_captured")
    return Charge(
      id: object.id, origin: object.origin,
      amount: captured != nil
        ? try amount(v, "amount_captured", currency) : try amount(v, "amount", currency),
      currency: currency, succeeded: status == "succeeded" && paid, created: created,
      intent: try StripeObject.reference(v, "payment_intent"),
      invoice: try StripeObject.reference(v, "invoice"),
      customer: try StripeObject.reference(v, "customer"), live: try live(v),
      metadata: Metadata(v, keys: object.metadataKeys))
  }

  /// Reads a refund or a dispute.
  static func moneyBack<V: StripeJSON>(_ v: V, _ object: Head) throws(RowRejection) -> Return {
    let currency = try currency(v)
    guard let created = try StripeObject.instant(v, "created", within: object.window) else {
      throw RowRejection("missing created")
    }
    return Return(
      id: object.id, origin: object.origin, charge: try StripeObject.reference(v, "charge"),
      intent: try StripeObject.reference(v, "payment_intent"), amount: try amount(v, "amount", currency),
      currency: currency, status: try v.optionalText("status") ?? "", at: created, live: try live(v),
      dispute: object.kind == .dispute)
  }

  /// Reads a subscription: its price from the first item (the first item's period, before and after
  /// 2025-03-31, is not needed: the paid invoices state the periods).
  static func subscription<V: StripeJSON>(_ v: V, _ object: Head) throws(RowRejection) -> Subscription {
    var price: (id: String, lookupKey: String?)?
    if let first: V = try v.optionalObject("items")?.optionalArray("data")?.first {
      price = try StripeParts.price(first["price"] ?? first["plan"])
    }
    var start = try StripeObject.instant(v, "start_date", within: object.window)
    if start == nil { start = try StripeObject.instant(v, "created", within: object.window) }
    return Subscription(
      id: object.id, origin: object.origin, status: try v.optionalText("status") ?? "",
      customer: try StripeObject.reference(v, "customer"),
      metadata: Metadata(v, keys: object.metadataKeys), live: try live(v),
      start: start,
      trialStart: try StripeObject.instant(v, "trial_start", within: object.window),
      trialEnd: try StripeObject.instant(v, "trial_end", within: object.window),
      endedAt: try StripeObject.instant(v, "ended_at", within: object.window), price: price?.id,
      priceLookupKey: price?.lookupKey)
  }
}
