import StoreReconCore

/// One Stripe web subscription of the realistic world (``DemoStripeWeb``): its invoices, the money
/// that went back on them and its final state, all instants on whole seconds as Stripe keeps them.
struct DemoWebSubscription {
  /// The Stripe prices Acme sells on the web: a legacy monthly price created before lookup keys were
  /// used (its product name is its id), and the monthly and yearly prices with lookup keys. Each is one
  /// multi-currency price (`currency_options`), so the product name is the same in every currency.
  enum Price: Int, CaseIterable {
    case legacyMonthly, monthly, yearly

    /// The price id (`price_` and 24 characters).
    var id: String {
      switch self {
      case .legacyMonthly: return "price_1KxQ2aK3fWq2Lz8xWbT4kdEz"
      case .monthly: return "price_1NjR7cK3fWq2Lz8xHq2mVw9P"
      case .yearly: return "price_1NjR8LK3fWq2Lz8xA0uXs3Yc"
      }
    }

    /// The price's `lookup_key` (`nil`: none, so the product name is the id).
    var lookupKey: String? {
      switch self {
      case .legacyMonthly: return nil
      case .monthly: return "pro_monthly"
      case .yearly: return "pro_yearly"
      }
    }

    /// The product name in storerecon's reports: the lookup key, else the price id.
    var productName: String { lookupKey ?? id }

    /// The Stripe product the price belongs to.
    static let product = "prod_NVh2wXq8Lr3Tfa"

    /// Calendar months per billing period.
    var months: Int { self == .yearly ? 12 : 1 }

    /// When the price was created (Unix seconds).
    var created: Int64 { self == .legacyMonthly ? 1_654_041_600 : 1_693_526_400 }
  }

  /// Money back on an invoice's charge: a refund or a dispute.
  struct MoneyBack {
    var id: String
    var balanceTransaction: String
    var amount: Int64
    var at: Instant
    /// Refund: `succeeded`. Dispute: `needs_response` (open), `won` or `lost`.
    var status: String
    /// A dispute's close (won or lost); its reversal's balance transaction when won.
    var closedAt: Instant?
    var reversalTransaction: String?
  }

  /// One invoice: a paid period (or a free trial's zero invoice, or an open one that failed to pay).
  struct Invoice {
    var id: String
    var line: String
    var charge: String
    var intent: String
    var balanceTransaction: String
    var invoicePayment: String
    var periodStart: Instant
    var periodEnd: Instant
    var paidAt: Instant
    var amount: Int64
    var tax: Int64
    var refunds: [MoneyBack] = []
    var dispute: MoneyBack?
    /// `subscription_create`, `subscription_cycle`.
    var billingReason: String
    /// Unpaid (`open`: the subscription is `past_due`).
    var open = false
    /// A $0 invoice (a trial's).
    var free: Bool { amount == 0 }
  }

  var id: String
  var customer: String
  var item: String
  var price: Price
  var currency: Currency
  var country: DemoCountry
  var created: Instant
  var trialEnd: Instant?
  var invoices: [Invoice] = []
  var canceledAt: Instant?
  var endedAt: Instant?
  var cancelAtPeriodEnd = false
  var live = true
  /// The app's user, in the subscription's metadata (`onSubscription`) or the customer's.
  var userId: String
  var metadataOnSubscription = true
  var metadataOnCustomer = false

  /// `trialing`, `active`, `past_due` or `canceled` as of `t`.
  func status(at t: Instant) -> String {
    if let endedAt, endedAt <= t { return "canceled" }
    if invoices.last?.open ?? false { return "past_due" }
    if let trialEnd, trialEnd > t { return "trialing" }
    return "active"
  }

  /// The paid invoices (not free, not open).
  var paid: [Invoice] { invoices.filter { !$0.open && !$0.free } }

  /// The period the subscription is in at `t` (its latest invoice's), or the trial.
  var currentPeriod: (start: Instant, end: Instant) {
    if let last = invoices.last { return (last.periodStart, last.periodEnd) }
    return (created, trialEnd ?? created)
  }
}
