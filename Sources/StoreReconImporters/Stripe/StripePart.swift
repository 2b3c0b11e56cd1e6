import StoreReconCore
import StoreReconIO

/// What the chains read of one Stripe object, taken from its line as it is read (no tree of the object
/// is kept): docs/inputs.md#stripe-objects.
enum StripePart: Sendable {
  case subscription(StripeParts.Subscription)
  case invoice(StripeParts.Invoice)
  case charge(StripeParts.Charge)
  /// A refund or a dispute.
  case moneyBack(StripeParts.Return)
  case invoicePayment(StripeParts.InvoicePayment)
  /// A customer's metadata (the app's user).
  case customer(StripeParts.Metadata)
  /// A price's `lookup_key` (its product name where set).
  case price(lookupKey: String?)
  case product

  /// Reads the object `v` of `kind`.
  static func read<V: StripeJSON>(_ kind: StripeObject.Kind, _ v: V, head: StripeParts.Head)
    throws(RowRejection)
    -> StripePart
  {
    switch kind {
    case .subscription: return .subscription(try StripeParts.subscription(v, head))
    case .invoice: return .invoice(try StripeParts.invoice(v, head))
    case .charge: return .charge(try StripeParts.charge(v, head))
    case .refund, .dispute: return .moneyBack(try StripeParts.moneyBack(v, head))
    case .invoicePayment: return .invoicePayment(try StripeParts.invoicePayment(v))
    case .customer: return .customer(StripeParts.Metadata(v, keys: head.metadataKeys))
    case .price: return .price(lookupKey: v["lookup_key"]?.text)
    case .product: return .product
    }
  }
}

extension StripeParts {
  /// What an object's reader needs besides its fields.
  struct Head {
    var kind: StripeObject.Kind
    var id: String
    var origin: Origin
    /// The metadata keys kept (``Metadata``).
    var metadataKeys: [String]
    /// The run's time window (from T) every timestamp must fall in.
    var window: StoreTimeWindow
  }
}

extension StripePart {
  var subscription: StripeParts.Subscription? {
    if case .subscription(let s) = self { return s }
    return nil
  }

  var invoice: StripeParts.Invoice? {
    if case .invoice(let i) = self { return i }
    return nil
  }

  var charge: StripeParts.Charge? {
    if case .charge(let c) = self { return c }
    return nil
  }

  var moneyBack: StripeParts.Return? {
    if case .moneyBack(let r) = self { return r }
    return nil
  }

  var invoicePayment: StripeParts.InvoicePayment? {
    if case .invoicePayment(let p) = self { return p }
    return nil
  }

  var customer: StripeParts.Metadata? {
    if case .customer(let m) = self { return m }
    return nil
  }

  var lookupKey: String? {
    if case .price(let key) = self { return key }
    return nil
  }
}
