import StoreReconCore

/// Writing a web subscription's Stripe objects: the customer, the subscription's first and final states,
/// its invoices, charges, refunds and disputes, each line an `event` of the app's webhook log or a plain
/// object of a list export, every field Stripe sends, in the 2025-03-31 shape from the migration on.
extension DemoStripeWeb {
  /// The price and product objects (a list export).
  func writeCatalog() throws {
    var product = DemoJSONMembers()
    product.text("id", DemoWebSubscription.Price.product)
    product.text("object", "product")
    product.raw("active", "true")
    product.int("created", DemoWebSubscription.Price.legacyMonthly.created)
    product.raw("description", "null")
    product.raw("images", "[]")
    product.raw("livemode", "true")
    product.raw("metadata", "{}")
    product.text("name", "Acme Pro")
    product.text("type", "service")
    product.int("updated", DemoWebSubscription.Price.monthly.created)
    try writeLine(product, to: objects)
    for price in DemoWebSubscription.Price.allCases {
      line.reset()
      line.bytes = priceObject(price, currencyCode: "usd", amount: price == .yearly ? 7999 : 999, live: true)
      try objects.writeLine(line)
    }
  }

  /// All lines of `sub`, and its balance report rows.
  func write(_ sub: DemoWebSubscription, _ rng: inout DemoRandom) throws {
    if sub.live { subscriptions += 1 }
    try customer(sub)
    let last = lastChange(sub)
    if last > sub.created {
      try emit(
        subscriptionObject(sub, at: sub.created, final: false), "customer.subscription.created", sub.created,
        sub.live, alwaysEvent: true)
    }
    let ended = sub.endedAt.map { $0 <= t } ?? false
    try emit(
      subscriptionObject(sub, at: last, final: true),
      ended
        ? "customer.subscription.deleted"
        : (last > sub.created ? "customer.subscription.updated" : "customer.subscription.created"),
      last, sub.live, alwaysEvent: last > sub.created)
    for inv in sub.invoices {
      try emit(
        invoiceObject(sub, inv), inv.open ? "invoice.payment_failed" : "invoice.paid", inv.paidAt, sub.live)
      guard !inv.open && !inv.free else { continue }
      let refunded = inv.refunds.reduce(0) { $0 + $1.amount }
      if let lastRefund = inv.refunds.map(\.at).max() {
        if style.chance(500) {
          try emit(
            chargeObject(sub, inv, refunded: 0, at: inv.paidAt), "charge.succeeded", inv.paidAt, sub.live,
            alwaysEvent: true)
        }
        try emit(
          chargeObject(sub, inv, refunded: refunded, at: lastRefund), "charge.refunded", lastRefund, sub.live,
          alwaysEvent: true)
      } else {
        try emit(
          chargeObject(sub, inv, refunded: 0, at: inv.paidAt), "charge.succeeded", inv.paidAt, sub.live)
      }
      if style.chance(300) {
        try emit(intentObject(sub, inv), "payment_intent.succeeded", inv.paidAt, sub.live, alwaysEvent: true)
      }
      for refund in inv.refunds {
        try emit(refundObject(sub, inv, refund), "refund.created", refund.at, sub.live)
      }
      if let dispute = inv.dispute {
        if let closed = dispute.closedAt {
          if style.chance(600) {
            var open = dispute
            open.status = "needs_response"
            open.closedAt = nil
            try emit(
              disputeObject(sub, inv, open), "charge.dispute.created", dispute.at, sub.live, alwaysEvent: true
            )
          }
          try emit(
            disputeObject(sub, inv, dispute), "charge.dispute.closed", closed, sub.live, alwaysEvent: true)
        } else {
          try emit(disputeObject(sub, inv, dispute), "charge.dispute.created", dispute.at, sub.live)
        }
      }
      if sub.live { try balanceRows(sub, inv) }
    }
  }

  /// The last instant the subscription changed (its final state's time).
  func lastChange(_ sub: DemoWebSubscription) -> Instant {
    var last = sub.created
    if let paid = sub.invoices.last?.paidAt { last = max(last, paid) }
    if let canceled = sub.canceledAt { last = max(last, canceled) }
    if let ended = sub.endedAt, ended <= t { last = max(last, ended) }
    return last
  }

  /// Writes `object` as an event of the webhook log (always with `alwaysEvent`, else mostly) or as a
  /// plain object of the list export.
  func emit(_ object: DemoJSONMembers, _ type: String, _ at: Instant, _ live: Bool, alwaysEvent: Bool = false)
    throws
  {
    let order = [DemoJSONMembers.Order.asAdded, .sorted, .shuffled][style.weighted([750, 180, 70])]
    guard alwaysEvent || style.chance(720) else {
      try writeLine(object, to: objects, order: order)
      return
    }
    var body = DemoLine()
    object.write(order, into: &body, &style)
    var event = DemoJSONMembers()
    event.text("id", DemoStripeIds.id("evt_1", &style))
    event.text("object", "event")
    event.text("api_version", at >= DemoStripeWeb.migratedAt ? "2025-03-31.basil" : "2024-06-20")
    event.int("created", at.ms / 1000)
    var data = DemoLine()
    data.raw("{\"object\":")
    data.bytes += body.bytes
    data.raw("}")
    event.raw("data", bytes: data.bytes)
    event.raw("livemode", live ? "true" : "false")
    event.int("pending_webhooks", style.chance(950) ? 0 : 1)
    if type.hasPrefix("customer.subscription") || type == "refund.created" {
      event.raw(
        "request",
        "{\"id\":\"req_\(DemoStripeIds.random(14, &style))\",\"idempotency_key\":\"\(DemoStripeIds.random(8, &style))-\(DemoStripeIds.random(4, &style))\"}"
      )
    } else {
      event.raw("request", "{\"id\":null,\"idempotency_key\":null}")
    }
    event.text("type", type)
    try writeLine(event, to: events, order: order == .shuffled ? .asAdded : order)
    if style.chance(5) { try events.writeLine(line) }  // a webhook delivered twice
  }

  func writeLine(
    _ members: DemoJSONMembers, to writer: DemoFileWriter, order: DemoJSONMembers.Order = .asAdded
  )
    throws
  {
    line.reset()
    members.write(order, into: &line, &style)
    try writer.writeLine(line)
  }

  /// Stripe's amount of `minor` ISO minor units (the same number in the checkout's currencies).
  func stripeAmount(_ minor: Int64) -> String { String(minor) }

  func customer(_ sub: DemoWebSubscription) throws {
    var m = DemoJSONMembers()
    m.text("id", sub.customer)
    m.text("object", "customer")
    m.raw("address", "null")
    m.int("balance", 0)
    m.int("created", sub.created.ms / 1000 - 2)
    m.raw("currency", "\"\(sub.currency.code.lowercased())\"")
    m.raw("default_source", "null")
    m.raw("delinquent", "false")
    m.raw("description", "null")
    m.raw("discount", "null")
    m.text("email", "u" + String(sub.customer.suffix(6)).lowercased() + "@mail.example")
    m.text("invoice_prefix", String(sub.customer.suffix(8)).uppercased())
    m.raw(
      "invoice_settings",
      "{\"custom_fields\":null,\"default_payment_method\":\"pm_1\(sub.customer.suffix(14))\(DemoStripeIds.account)\",\"footer\":null,\"rendering_options\":null}"
    )
    m.raw("livemode", sub.live ? "true" : "false")
    m.raw("metadata", sub.metadataOnCustomer ? "{\"app_user_id\":\"\(sub.userId)\"}" : "{}")
    m.raw("name", "null")
    m.int("next_invoice_sequence", Int64(sub.invoices.count + 1))
    m.raw("phone", "null")
    m.raw("preferred_locales", "[\"\(sub.country.alpha2.lowercased())\"]")
    m.raw("shipping", "null")
    m.text("tax_exempt", "none")
    m.raw("test_clock", "null")
    try emit(m, "customer.created", sub.created.adding(ms: -2000), sub.live)
  }

  /// A price object as Stripe expands it.
  func priceObject(_ price: DemoWebSubscription.Price, currencyCode: String, amount: Int64, live: Bool)
    -> [UInt8]
  {
    var m = DemoJSONMembers()
    m.text("id", price.id)
    m.text("object", "price")
    m.raw("active", "true")
    m.text("billing_scheme", "per_unit")
    m.int("created", price.created)
    m.text("currency", currencyCode)
    m.raw("custom_unit_amount", "null")
    m.raw("livemode", live ? "true" : "false")
    if let key = price.lookupKey { m.text("lookup_key", key) } else { m.raw("lookup_key", "null") }
    m.raw("metadata", "{}")
    m.text("nickname", price == .yearly ? "Pro yearly" : "Pro monthly")
    m.text("product", DemoWebSubscription.Price.product)
    m.raw(
      "recurring",
      "{\"interval\":\"\(price == .yearly ? "year" : "month")\",\"interval_count\":1,\"meter\":null,\"trial_period_days\":null,\"usage_type\":\"licensed\"}"
    )
    m.text("tax_behavior", "inclusive")
    m.raw("tiers_mode", "null")
    m.raw("transform_quantity", "null")
    m.text("type", "recurring")
    m.int("unit_amount", amount)
    m.text("unit_amount_decimal", String(amount))
    var text = DemoLine()
    m.write(.asAdded, into: &text, &style)
    return text.bytes
  }
}
