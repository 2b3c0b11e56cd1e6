import StoreReconCore
import StoreReconIO

/// The fields of Stripe's objects the chains are built from, read the same from both API shapes
/// (before and after 2025-03-31): docs/inputs.md#stripe-objects.
enum StripeParts {
  /// A paid or unpaid invoice.
  struct Invoice {
    var id: String
    var origin: Origin
    var subscription: String?
    var customer: String?
    var paid: Bool
    var amountPaid: Int64
    var currency: Currency?
    var tax: Int64?
    var paidAt: Instant
    var periodStart: Instant?
    var periodEnd: Instant?
    var price: String?
    var priceLookupKey: String?
    var oneTime: Bool
    var quantity: UInt16
    var charges: [String]
    var intents: [String]
    var live: Bool
  }

  /// A charge (card payment).
  struct Charge {
    var id: String
    var origin: Origin
    var amount: Int64
    var currency: Currency
    var succeeded: Bool
    var created: Instant
    var intent: String?
    var invoice: String?
    var customer: String?
    var live: Bool
    var metadata: Metadata?
  }

  /// A refund or a dispute: money going back on a charge.
  struct Return {
    var id: String
    var origin: Origin
    var charge: String?
    var intent: String?
    var amount: Int64
    var currency: Currency
    var status: String
    var at: Instant
    var live: Bool
    /// A dispute (chargeback), not a refund.
    var dispute: Bool
  }

  /// A subscription.
  struct Subscription {
    var id: String
    var origin: Origin
    var status: String
    var customer: String?
    var metadata: Metadata?
    var live: Bool
    var start: Instant?
    var trialStart: Instant?
    var trialEnd: Instant?
    var endedAt: Instant?
    var price: String?
    var priceLookupKey: String?
  }

  /// An `invoice_payment`: the invoice it pays and the charge or payment intent of its `payment`.
  struct InvoicePayment {
    var invoice: String
    var charges: [String]
    var intents: [String]
  }

  /// The metadata values the chains read (``StripeChains/userMetadataKey`` and `product_id`).
  struct Metadata {
    var keys: [String] = []
    var values: [String] = []

    /// The values `values` of `keys` (as a snapshot kept them).
    init(keys: [String], values: [String]) { (self.keys, self.values) = (keys, values) }

    /// The non-empty values of `keys` in the `metadata` of `object`.
    init<V: StripeJSON>(_ object: V, keys wanted: [String]) {
      guard let metadata = object["metadata"] else { return }
      for key in wanted {
        guard let text = metadata[key]?.text, !text.isEmpty else { continue }
        keys.append(key)
        values.append(text)
      }
    }

    /// The value of `key`.
    func value(_ key: String) -> String? { keys.firstIndex(of: key).map { values[$0] } }
  }

  /// A price id and lookup key, from an id or an expanded price object.
  static func price<V: StripeJSON>(_ value: V?) throws(RowRejection) -> (id: String, lookupKey: String?)? {
    guard let value else { return nil }
    if value.isObject {
      guard let id = try value.optionalText("id") else { return nil }
      return (id, try value.optionalText("lookup_key"))
    }
    guard let id = value.text, !id.isEmpty else { return nil }
    return (id, nil)
  }

  /// A metadata value.
  static func metadata(_ metadata: Metadata?, _ key: String) -> String? { metadata?.value(key) }

  /// Whether the object is from live mode (test mode: `livemode` false).
  static func live<V: StripeJSON>(_ object: V) throws(RowRejection) -> Bool {
    try object.optionalBool("livemode") ?? true
  }

  /// A non-negative amount in Stripe's smallest unit, as ISO minor units of `currency`.
  static func amount<V: StripeJSON>(_ object: V, _ key: String, _ currency: Currency) throws(RowRejection)
    -> Int64
  {
    let value = try object.optionalInt64(key) ?? 0
    guard value >= 0 else { throw RowRejection("\(key) '\(value)' is negative") }
    return try StripeCurrency.minor(value, currency, field: key)
  }

  /// The object's `currency`, which must be there.
  static func currency<V: StripeJSON>(_ object: V) throws(RowRejection) -> Currency {
    guard let code = try object.optionalText("currency") else { throw RowRejection("missing currency") }
    return try StripeCurrency.named(code)
  }
}
