import StoreReconCore

/// The Stripe API objects of one web subscription as JSON lines, in either of Stripe's API shapes
/// (docs/inputs.md#stripe-objects): before 2025-03-31, a subscription's current period at its top level,
/// an invoice's `subscription`, `charge` and `payment_intent`, a line's expanded `price`, a charge's
/// `invoice`; from 2025-03-31 on, the period on each item, `parent.subscription_details.subscription`,
/// `payments`, `pricing.price_details`, and no `invoice` on a charge.
enum DemoStripeObjects {
  /// A JSON string.
  static func q(_ text: String) -> String { "\"" + text + "\"" }

  /// Unix seconds.
  static func s(_ instant: Instant) -> String { String(instant.ms.floorDivided(by: 1000).quotient) }

  /// `{"k": v, …}` of members already rendered.
  static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { q($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
  }

  /// A list object holding `data`.
  static func list(_ data: [String]) -> String {
    object([("object", q("list")), ("data", "[" + data.joined(separator: ",") + "]"), ("has_more", "false")])
  }

  /// The price and product every web subscription buys, with `created` at `at`.
  static func catalog(at: Instant, currency: String) -> [String] {
    [
      object([
        ("id", q(DemoStripeSubscription.productId)), ("object", q("product")), ("active", "true"),
        ("created", s(at)), ("livemode", "true"), ("name", q("Acme Pro (web)")),
      ]),
      object([
        ("id", q(DemoStripeSubscription.priceId)), ("object", q("price")), ("active", "true"),
        ("created", s(at)), ("currency", q(currency)), ("livemode", "true"),
        ("lookup_key", q(DemoStripeSubscription.product)), ("product", q(DemoStripeSubscription.productId)),
        ("recurring", object([("interval", q("month")), ("interval_count", "1")])), ("type", q("recurring")),
        ("unit_amount", "499"),
      ]),
    ]
  }

  /// The expanded price an item or a line carries before 2025-03-31.
  static var expandedPrice: String {
    object([
      ("id", q(DemoStripeSubscription.priceId)), ("object", q("price")),
      ("lookup_key", q(DemoStripeSubscription.product)), ("product", q(DemoStripeSubscription.productId)),
      ("type", q("recurring")),
    ])
  }

  /// Every line of `sub`: its customer, the subscription (an older state first where it ended), its
  /// invoices, charges, refunds and dispute.
  static func lines(_ sub: DemoStripeSubscription) -> [String] {
    let currency = q(sub.currency.code.lowercased())
    let live = sub.live ? "true" : "false"
    var out = [
      object([
        ("id", q(sub.customer)), ("object", q("customer")), ("created", s(sub.created.adding(ms: -60_000))),
        ("email", q(sub.person + "@example.com")), ("livemode", live),
        ("metadata", object([("app_user_id", q(sub.person))])),
      ])
    ]
    if sub.endedAt != nil {
      var older = sub
      older.status = "active"
      older.endedAt = nil
      out.append(subscription(older))
    }
    out.append(subscription(sub))
    for (n, invoice) in sub.invoices.enumerated() {
      out.append(self.invoice(invoice, sub, first: n == 0))
      guard invoice.isCharge else { continue }
      let refunded = invoice.refunds.reduce(Int64(0)) { $0 + $1.amount }
      var charge: [(String, String)] = [
        ("id", q(invoice.charge)), ("object", q("charge")), ("amount", String(invoice.amount)),
        ("amount_captured", String(invoice.amount)), ("amount_refunded", String(refunded)),
        ("balance_transaction", q(invoice.balanceTransaction)), ("created", s(invoice.paidAt)),
        ("currency", currency), ("customer", q(sub.customer)),
        ("disputed", invoice.dispute == nil ? "false" : "true"),
        ("livemode", live), ("paid", "true"), ("payment_intent", q(invoice.intent)),
        ("refunded", refunded >= invoice.amount ? "true" : "false"), ("status", q("succeeded")),
      ]
      if !sub.basil { charge.append(("invoice", q(invoice.id))) }
      out.append(object(charge))
      for r in invoice.refunds {
        out.append(
          object([
            ("id", q(r.id)), ("object", q("refund")), ("amount", String(r.amount)),
            ("balance_transaction", q(r.balanceTransaction)), ("charge", q(invoice.charge)),
            ("created", s(r.at)), ("currency", currency), ("payment_intent", q(invoice.intent)),
            ("reason", q("requested_by_customer")), ("status", q("succeeded")),
          ]))
      }
      if let d = invoice.dispute {
        out.append(
          object([
            ("id", q(d.id)), ("object", q("dispute")), ("amount", String(invoice.amount)),
            ("charge", q(invoice.charge)), ("created", s(d.at)), ("currency", currency), ("livemode", live),
            ("payment_intent", q(invoice.intent)), ("reason", q("fraudulent")), ("status", q(d.status)),
          ]))
      }
    }
    return out
  }

  /// A webhook event of `sub` as Stripe's event list holds it: `invoice.paid` carries the latest
  /// invoice, any other type the subscription; its API version is the shape the objects are written in.
  static func event(_ e: DemoStripeSubscription.Event, _ sub: DemoStripeSubscription) -> String {
    var body = subscription(sub)
    if e.type == "invoice.paid", let last = sub.invoices.last {
      body = invoice(last, sub, first: sub.invoices.count == 1)
    }
    return object([
      ("id", q(e.id)), ("object", q("event")),
      ("api_version", q(sub.basil ? "2025-03-31.basil" : "2024-06-20")),
      ("created", s(e.created)), ("data", object([("object", body)])),
      ("livemode", sub.live ? "true" : "false"),
      ("pending_webhooks", e.received == nil ? "1" : "0"),
      ("request", object([("id", "null"), ("idempotency_key", "null")])), ("type", q(e.type)),
    ])
  }

  /// The subscription: its current period (the latest invoice's, or the trial) at the top level before
  /// 2025-03-31, on its item from then on.
  static func subscription(_ sub: DemoStripeSubscription) -> String {
    let period =
      sub.invoices.last.map { ($0.start, $0.end) } ?? sub.trial.map { ($0.start, $0.end) }
      ?? (sub.created, sub.created)
    var item: [(String, String)] = [
      ("id", q("si_" + sub.id.dropFirst(4))), ("object", q("subscription_item")),
      ("price", expandedPrice), ("quantity", "1"),
    ]
    var members: [(String, String)] = [
      ("id", q(sub.id)), ("object", q("subscription")),
      ("cancel_at", sub.cancelAtPeriodEnd ? s(period.1) : "null"),
      ("cancel_at_period_end", sub.cancelAtPeriodEnd ? "true" : "false"),
      ("canceled_at", sub.endedAt.map(s) ?? "null"), ("created", s(sub.created)),
      ("currency", q(sub.currency.code.lowercased())), ("customer", q(sub.customer)),
      ("ended_at", sub.endedAt.map(s) ?? "null"), ("livemode", sub.live ? "true" : "false"),
      ("metadata", "{}"), ("start_date", s(sub.created)), ("status", q(sub.status)),
      ("trial_end", sub.trial.map { s($0.end) } ?? "null"),
      ("trial_start", sub.trial.map { s($0.start) } ?? "null"),
    ]
    let current = [("current_period_end", s(period.1)), ("current_period_start", s(period.0))]
    if sub.basil { item += current } else { members += current }
    members.append(("items", list([object(item)])))
    return object(members)
  }

  /// An invoice: paid (with its payment), a trial's zero-amount one, or open.
  static func invoice(_ invoice: DemoStripeSubscription.Invoice, _ sub: DemoStripeSubscription, first: Bool)
    -> String
  {
    let currency = q(sub.currency.code.lowercased())
    let due = invoice.open ? sub.invoices.first { $0.isCharge }?.amount ?? invoice.amount : invoice.amount
    var line: [(String, String)] = [
      ("id", q("il_" + invoice.id.dropFirst(3))), ("object", q("line_item")), ("amount", String(due)),
      ("currency", currency), ("period", object([("end", s(invoice.end)), ("start", s(invoice.start))])),
      ("quantity", "1"),
    ]
    var members: [(String, String)] = [
      ("id", q(invoice.id)), ("object", q("invoice")), ("amount_due", String(due)),
      ("amount_paid", String(invoice.amount)),
      ("billing_reason", q(first ? "subscription_create" : "subscription_cycle")),
      ("created", s(invoice.start)), ("currency", currency), ("customer", q(sub.customer)),
      ("livemode", sub.live ? "true" : "false"), ("status", q(invoice.open ? "open" : "paid")),
      (
        "status_transitions",
        object([
          ("finalized_at", s(invoice.start)), ("paid_at", invoice.open ? "null" : s(invoice.paidAt)),
        ])
      ),
    ]
    let paid = invoice.isCharge
    if sub.basil {
      line.append(
        (
          "pricing",
          object([
            ("type", q("price_details")),
            (
              "price_details",
              object([
                ("price", q(DemoStripeSubscription.priceId)),
                ("product", q(DemoStripeSubscription.productId)),
              ])
            ),
          ])
        ))
      line.append(("parent", object([("type", q("subscription_item_details"))])))
      members.append(
        (
          "parent",
          object([
            ("type", q("subscription_details")),
            ("subscription_details", object([("subscription", q(sub.id))])),
          ])
        ))
      let payment = object([
        ("id", q("inpay_" + invoice.id.dropFirst(3))), ("object", q("invoice_payment")),
        ("payment", object([("payment_intent", q(invoice.intent)), ("type", q("payment_intent"))])),
        ("status", q("paid")),
      ])
      members.append(("payments", list(paid ? [payment] : [])))
    } else {
      line.append(("price", expandedPrice))
      line.append(("type", q("subscription")))
      members.append(("subscription", q(sub.id)))
      members.append(("charge", paid ? q(invoice.charge) : "null"))
      members.append(("payment_intent", paid ? q(invoice.intent) : "null"))
    }
    members.append(("lines", list([object(line)])))
    return object(members)
  }
}
