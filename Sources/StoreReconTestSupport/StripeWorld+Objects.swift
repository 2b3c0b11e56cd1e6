import Foundation

extension StripeWorld {
  static func at(_ day: (Int, Int)) -> Int64 { at(day.0, day.1) }

  /// The customer, subscription, invoices, charges, refunds and dispute of one plant.
  static func objects(_ p: Plant, _ shape: Shape) -> [[String: Any]] {
    let sub = id("sub", p.name)
    let customer = id("cus", p.name)
    var out: [[String: Any]] = [
      [
        "id": customer, "object": "customer", "livemode": p.live, "created": at(1, 10),
        "metadata": ["app_user_id": p.user], "email": "\(p.name)@example.com",
      ]
    ]
    if p.name == "canceled" {
      // An older state of the subscription, superseded by the canceled one below.
      var older = subscription(p, sub: sub, customer: customer, shape: shape)
      older["status"] = "active"
      older["ended_at"] = NSNull()
      older["canceled_at"] = NSNull()
      out.append(older)
    }
    out.append(subscription(p, sub: sub, customer: customer, shape: shape))
    for (n, period) in p.periods.enumerated() {
      let name = "\(p.name)\(n)"
      let charge = id("ch", name)
      let intent = id("pi", name)
      out.append(
        invoice(
          p, id: id("in", name), sub: sub, customer: customer, period: (at(period.start), at(period.end)),
          paid: p.amount, charge: charge, intent: intent, shape: shape))
      var c: [String: Any] = [
        "id": charge, "object": "charge", "amount": p.amount, "amount_captured": p.amount,
        "currency": p.currency, "status": "succeeded", "paid": true, "created": at(period.start),
        "payment_intent": intent, "customer": customer, "livemode": p.live,
        "balance_transaction": id("txn", name), "amount_refunded": p.refunds.reduce(0) { $0 + $1.amount },
      ]
      if shape == .acacia { c["invoice"] = id("in", name) }
      out.append(c)
      guard n == p.periods.count - 1 else { continue }
      for (k, refund) in p.refunds.enumerated() {
        out.append([
          "id": id("re", "\(name)r\(k)"), "object": "refund", "amount": refund.amount, "currency": p.currency,
          "charge": charge, "payment_intent": intent, "status": "succeeded", "created": at(refund.at),
        ])
      }
      if let d = p.dispute {
        out.append([
          "id": id("dp", name), "object": "dispute", "amount": p.amount, "currency": p.currency,
          "charge": charge, "payment_intent": intent, "status": d.status, "created": at(d.at),
          "livemode": p.live, "reason": "fraudulent",
        ])
      }
    }
    if let open = p.openFrom {
      var end = open
      end.0 += 1
      out.append(
        invoice(
          p, id: id("in", p.name + "open"), sub: sub, customer: customer, period: (at(open), at(end)),
          paid: 0,
          charge: nil, intent: nil, shape: shape))
    }
    return out
  }

  /// A subscription: its current period at the top level (before 2025-03-31) or on its item.
  static func subscription(_ p: Plant, sub: String, customer: String, shape: Shape) -> [String: Any] {
    let last = p.periods.last.map { (at($0.start), at($0.end)) } ?? p.trial.map { (at($0.start), at($0.end)) }
    let period = last ?? (at(11, 1), at(12, 1))
    var item: [String: Any] = [
      "id": id("si", p.name), "object": "subscription_item", "price": price, "quantity": 1,
    ]
    var s: [String: Any] = [
      "id": sub, "object": "subscription", "status": p.status, "customer": customer, "livemode": p.live,
      "created": at(p.periods.first?.start ?? p.trial?.start ?? (11, 1)),
      "start_date": at(p.periods.first?.start ?? p.trial?.start ?? (11, 1)),
      "cancel_at_period_end": p.cancelAtPeriodEnd, "metadata": [String: String](),
    ]
    if shape == .acacia {
      s["current_period_start"] = period.0
      s["current_period_end"] = period.1
    } else {
      item["current_period_start"] = period.0
      item["current_period_end"] = period.1
    }
    s["items"] = ["object": "list", "data": [item], "has_more": false]
    if let trial = p.trial {
      s["trial_start"] = at(trial.start)
      s["trial_end"] = at(trial.end)
    }
    if let ended = p.endedAt {
      s["ended_at"] = at(ended)
      s["canceled_at"] = at(ended)
    }
    return s
  }

  /// An invoice in either shape: its subscription, payment and line price where that shape has them.
  static func invoice(
    _ p: Plant, id: String, sub: String, customer: String, period: (Int64, Int64), paid: Int64,
    charge: String?,
    intent: String?, shape: Shape
  ) -> [String: Any] {
    var line: [String: Any] = [
      "id": "il_" + id.dropFirst(3), "object": "line_item", "amount": p.amount, "currency": p.currency,
      "period": ["start": period.0, "end": period.1], "quantity": 1,
    ]
    var invoice: [String: Any] = [
      "id": id, "object": "invoice", "customer": customer, "currency": p.currency, "amount_due": p.amount,
      "amount_paid": paid, "status": paid > 0 ? "paid" : "open", "livemode": p.live, "created": period.0,
      "status_transitions": [
        "finalized_at": period.0, "paid_at": paid > 0 ? period.0 as Any : NSNull() as Any,
      ],
    ]
    if shape == .acacia {
      line["price"] = price
      line["type"] = "subscription"
      invoice["subscription"] = sub
      invoice["charge"] = charge ?? NSNull()
      invoice["payment_intent"] = intent ?? NSNull()
    } else {
      line["pricing"] = [
        "type": "price_details", "price_details": ["price": price["id"] ?? "", "product": "prod_1Pro"],
      ]
      line["parent"] = ["type": "subscription_item_details"]
      invoice["parent"] = ["type": "subscription_details", "subscription_details": ["subscription": sub]]
      if let intent {
        invoice["payments"] = [
          "object": "list", "has_more": false,
          "data": [
            [
              "id": "inpay_" + id.dropFirst(3), "object": "invoice_payment",
              "payment": ["type": "payment_intent", "payment_intent": intent],
            ]
          ],
        ]
      }
    }
    invoice["lines"] = ["object": "list", "data": [line], "has_more": false]
    return invoice
  }
}
