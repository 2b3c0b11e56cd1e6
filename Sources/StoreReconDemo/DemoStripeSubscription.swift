import StoreReconCore

/// One Stripe web subscription of the demo world: what Stripe holds about it (its customer, invoices,
/// charges, refunds and dispute) and what docs/rules.md#stripe derives from it as of an instant.
///
/// Every amount is an ISO 4217 minor unit; for the demo's currencies (USD, EUR, GBP, JPY, KWD, CHF,
/// BRL) that is also Stripe's smallest unit (JPY is zero-decimal in both).
struct DemoStripeSubscription {
  /// A refund of an invoice's charge.
  struct Refund {
    var id: String
    var amount: Int64
    var at: Instant
    var balanceTransaction: String
  }

  /// A dispute (chargeback) of an invoice's charge.
  struct Dispute {
    var id: String
    var status: String
    var at: Instant
    var balanceTransaction: String
  }

  /// An invoice: a paid period (its charge, payment intent and balance transaction), a trial's
  /// zero-amount invoice, or an open (unpaid) one.
  struct Invoice {
    var id: String
    var charge: String
    var intent: String
    var balanceTransaction: String
    /// The period its line covers.
    var start: Instant
    var end: Instant
    var paidAt: Instant
    /// `amount_paid` (0 for a trial's invoice and an open one).
    var amount: Int64
    /// Not paid yet (`status` `open`).
    var open = false
    var refunds: [Refund] = []
    var dispute: Dispute?

    /// A paid invoice with money: a charge of the chain.
    var isCharge: Bool { !open && amount > 0 }

    /// Fully refunded or lost to a dispute at or before `t` (docs/rules.md#stripe).
    func isRevoked(at t: Instant) -> Bool {
      if let dispute, dispute.status == "lost", dispute.at <= t { return true }
      let back = refunds.filter { $0.at <= t }.reduce(Int64(0)) { $0 + $1.amount }
      return !refunds.isEmpty && back >= amount
    }
  }

  /// A webhook event Stripe sent about the subscription (docs/rules.md#stripe-webhook-events): in
  /// Stripe's event list (`exports/stripe/events.jsonl`) and, where the app received it, a row of the
  /// app's notification log.
  struct Event {
    var id: String
    /// `invoice.paid` (about the latest invoice) or `customer.subscription.updated`.
    var type: String
    var created: Instant
    /// In the app's log, received and processed at these instants; `nil`: never received.
    var received: (at: Instant, processed: Instant)?

    /// The types that ask something of the entitlement row (docs/rules.md#stripe-webhook-events), of
    /// those the demo writes.
    static let asking: Set<String> = ["invoice.paid"]
    /// The types the demo's webhook endpoint is enabled for (the app's log holds only these).
    static let enabled: Set<String> = ["invoice.paid"]
  }

  var id: String
  var customer: String
  /// The app user its customer's `metadata.app_user_id` names.
  var person: String
  var status = "active"
  var live = true
  /// Written in Stripe's API shape from 2025-03-31 on (else the one before).
  var basil = false
  var currency: Currency
  var created: Instant
  var trial: (start: Instant, end: Instant)?
  var endedAt: Instant?
  var cancelAtPeriodEnd = false
  /// A clean web subscriber (not a plant): its charges may carry the balance report's planted differences.
  var natural = false
  /// Oldest first.
  var invoices: [Invoice] = []
  /// Its webhook events of the demo's event list (most subscriptions have none there).
  var events: [Event] = []

  /// The product: the price's lookup key (`stripe:` in the catalog).
  static let product = "acme_pro_monthly"
  /// The price's id.
  static let priceId = "price_1PzAcmeProMonthlyWeb00"
  /// The product's id.
  static let productId = "prod_QzAcmeProWeb"

  /// The charges (paid invoices with money) at or before `t`.
  func charges(at t: Instant) -> [Invoice] { invoices.filter { $0.isCharge && $0.paidAt <= t } }

  /// Paid-through as the job derives it: the latest end of the trial and of the charges not revoked, each
  /// cut at `ended_at`; `nil` when nothing backs access.
  func paidThrough(at t: Instant) -> Instant? {
    var best: Instant?
    func consider(_ start: Instant, _ end: Instant) {
      var e = end
      if let endedAt { e = max(start, min(e, endedAt)) }
      if best.map({ e > $0 }) ?? true { best = e }
    }
    if let trial, trial.start <= t { consider(trial.start, trial.end) }
    for invoice in charges(at: t) where !invoice.isRevoked(at: t) { consider(invoice.paidAt, invoice.end) }
    return best
  }

  /// The latest purchase (the trial or a charge) was revoked at or before `t`.
  func isRefunded(at t: Instant) -> Bool {
    guard let last = charges(at: t).last else { return false }
    if let trial, trial.start > last.paidAt, trial.start <= t { return false }
    return last.isRevoked(at: t)
  }

  /// Paid periods for double billing: each charge not revoked, from its payment to its end, cut at the
  /// paid-through and at `t`.
  func paidPeriods(at t: Instant) -> [(Int64, Int64)] {
    guard live, let paidThrough = paidThrough(at: t) else { return [] }
    var out: [(Int64, Int64)] = []
    for invoice in charges(at: t) where !invoice.isRevoked(at: t) {
      var end = invoice.end
      if let endedAt { end = max(invoice.paidAt, min(end, endedAt)) }
      end = min(end, paidThrough, t)
      if end > invoice.paidAt { out.append((invoice.paidAt.ms, end.ms)) }
    }
    return out
  }
}
