/// The Stripe objects a fetch keeps, with the endpoint that lists and retrieves each and the fields asked
/// for that Stripe returns only when asked (`expand[]`).
enum StripeResource: String, CaseIterable, Sendable {
  case subscription, invoice, charge, refund, dispute, customer, price, product

  /// The list endpoint (`/v1/subscriptions`); `/{id}` retrieves one.
  var path: String {
    switch self {
    case .subscription: return "/v1/subscriptions"
    case .invoice: return "/v1/invoices"
    case .charge: return "/v1/charges"
    case .refund: return "/v1/refunds"
    case .dispute: return "/v1/disputes"
    case .customer: return "/v1/customers"
    case .price: return "/v1/prices"
    case .product: return "/v1/products"
    }
  }

  /// The fields to expand on one object: an invoice's `payments` (which charge paid it, since the
  /// 2025-03-31 version has no `invoice.charge`) and the balance transaction of a charge or refund (its
  /// actual fee and net).
  var expand: [String] {
    switch self {
    case .invoice: return ["payments"]
    case .charge, .refund: return ["balance_transaction"]
    default: return []
    }
  }

  /// The query of a list request: every status (Stripe lists only subscriptions not canceled unless
  /// asked for `status=all`), the expansions under `data.`, a full page.
  var listQuery: [(String, String)] {
    var query: [(String, String)] = [("limit", String(StripeAPI.pageSize))]
    if self == .subscription { query.append(("status", "all")) }
    for field in expand { query.append(("expand[]", "data." + field)) }
    return query
  }

  /// Whether the whole catalog is listed (prices and products: few, and old ones are still sold) rather
  /// than what was created since the backfill start.
  var listedWhole: Bool { self == .price || self == .product }

  /// The objects one of this kind refers to, as (kind, member path): a subscription's customer and its
  /// items' prices, an invoice's customer and subscription (either API shape), a refund's or dispute's
  /// charge, a price's product. Each is fetched when the file does not hold it yet.
  var references: [(StripeResource, [String])] {
    switch self {
    case .subscription: return [(.customer, ["customer"]), (.price, ["items", "data", "*", "price"])]
    case .invoice:
      return [
        (.customer, ["customer"]), (.subscription, ["subscription"]),
        (.subscription, ["parent", "subscription_details", "subscription"]),
      ]
    case .charge: return [(.customer, ["customer"])]
    case .refund, .dispute: return [(.charge, ["charge"])]
    case .price: return [(.product, ["product"])]
    case .customer, .product: return []
    }
  }
}
