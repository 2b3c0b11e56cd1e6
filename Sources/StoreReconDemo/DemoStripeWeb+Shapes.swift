import StoreReconCore

/// The Stripe objects of a web subscription, member by member, in the API shape of their time: before
/// 2025-03-31 (an invoice's `subscription`, `charge`, `payment_intent` and `tax`; a subscription's
/// `current_period_start/end`; a charge's `invoice`) or after (`parent.subscription_details`,
/// `payments`, `total_taxes`, the period on each subscription item, no `invoice` on a charge).
extension DemoStripeWeb {
  private func seconds(_ instant: Instant?) -> String { instant.map { String($0.ms / 1000) } ?? "null" }
  private func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "null" }
  private func code(_ sub: DemoWebSubscription) -> String { sub.currency.code.lowercased() }

  func subscriptionObject(_ sub: DemoWebSubscription, at: Instant, final: Bool) -> DemoJSONMembers {
    let new = at >= DemoStripeWeb.migratedAt
    let first = sub.invoices.first
    let period =
      final ? sub.currentPeriod : (first.map { ($0.periodStart, $0.periodEnd) } ?? (sub.created, sub.created))
    let ended = final ? sub.endedAt.flatMap { $0 <= t ? $0 : nil } : nil
    let canceled = final ? sub.canceledAt : nil
    let status = final ? sub.status(at: t) : (sub.trialEnd != nil ? "trialing" : "active")
    let latest = final ? sub.invoices.last : first
    var m = DemoJSONMembers()
    m.text("id", sub.id)
    m.text("object", "subscription")
    m.raw("application", "null")
    m.raw("application_fee_percent", "null")
    m.raw(
      "automatic_tax",
      "{\"disable_stripe_admin_tax\":false,\"enabled\":\(sub.country.taxIncluded),\"liability\":null}")
    m.int("billing_cycle_anchor", (sub.trialEnd ?? sub.created).ms / 1000)
    m.raw("billing_cycle_anchor_config", "null")
    m.raw("billing_thresholds", "null")
    m.raw("cancel_at", final && sub.cancelAtPeriodEnd ? seconds(period.1) : "null")
    m.raw("cancel_at_period_end", final && sub.cancelAtPeriodEnd ? "true" : "false")
    m.raw("canceled_at", seconds(canceled))
    m.raw(
      "cancellation_details",
      "{\"comment\":null,\"feedback\":\(canceled != nil && sub.id.hasSuffix("a") ? "\"too_expensive\"" : "null"),\"reason\":\(canceled != nil ? "\"cancellation_requested\"" : "null")}"
    )
    m.text("collection_method", "charge_automatically")
    m.int("created", sub.created.ms / 1000)
    m.text("currency", code(sub))
    if !new {
      m.int("current_period_end", period.1.ms / 1000)
      m.int("current_period_start", period.0.ms / 1000)
    }
    m.text("customer", sub.customer)
    m.raw("days_until_due", "null")
    m.text("default_payment_method", "pm_1" + sub.customer.suffix(9) + DemoStripeIds.account + "Pm")
    m.raw("default_source", "null")
    m.raw("default_tax_rates", "[]")
    m.raw("description", "null")
    if !new { m.raw("discount", "null") }
    m.raw("discounts", "[]")
    m.raw("ended_at", seconds(ended))
    m.raw("invoice_settings", "{\"account_tax_ids\":null,\"issuer\":{\"type\":\"self\"}}")
    m.raw("items", bytes: items(sub, period: period, new: new))
    m.raw("latest_invoice", text(latest?.id))
    m.raw("livemode", sub.live ? "true" : "false")
    m.raw("metadata", sub.metadataOnSubscription ? "{\"app_user_id\":\"\(sub.userId)\"}" : "{}")
    m.raw("next_pending_invoice_item_invoice", "null")
    m.raw("on_behalf_of", "null")
    m.raw("pause_collection", "null")
    m.raw(
      "payment_settings",
      "{\"payment_method_options\":null,\"payment_method_types\":null,\"save_default_payment_method\":\"off\"}"
    )
    m.raw("pending_invoice_item_interval", "null")
    m.raw("pending_setup_intent", "null")
    m.raw("pending_update", "null")
    m.raw("schedule", "null")
    m.int("start_date", sub.created.ms / 1000)
    m.text("status", status)
    m.raw("test_clock", "null")
    m.raw("transfer_data", "null")
    m.raw("trial_end", seconds(sub.trialEnd))
    m.raw("trial_settings", "{\"end_behavior\":{\"missing_payment_method\":\"create_invoice\"}}")
    m.raw("trial_start", sub.trialEnd == nil ? "null" : seconds(sub.created))
    return m
  }

  func invoiceObject(_ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice) -> DemoJSONMembers {
    let new = inv.paidAt >= DemoStripeWeb.migratedAt
    var m = DemoJSONMembers()
    invoiceHead(sub, inv, new: new, &m)
    invoiceTail(sub, inv, new: new, &m)
    return m
  }

  /// The invoice's members from `id` to `on_behalf_of`.
  private func invoiceHead(
    _ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice, new: Bool,
    _ m: inout DemoJSONMembers
  ) {
    let paid = !inv.open
    let charged = paid && !inv.free
    let number =
      String(sub.customer.suffix(8)).uppercased() + "-" + String(1000 + sub.invoices.count).suffix(4)
    m.text("id", inv.id)
    m.text("object", "invoice")
    m.text("account_country", "US")
    m.text("account_name", "Acme Apps, Inc.")
    m.raw("account_tax_ids", "null")
    m.int("amount_due", inv.amount)
    m.int("amount_overpaid", 0)
    m.int("amount_paid", paid ? inv.amount : 0)
    m.int("amount_remaining", paid ? 0 : inv.amount)
    m.int("amount_shipping", 0)
    m.raw("application", "null")
    m.int("attempt_count", inv.open ? 2 : (inv.free ? 0 : 1))
    m.raw("attempted", inv.free ? "false" : "true")
    m.raw("auto_advance", inv.open ? "true" : "false")
    m.raw(
      "automatic_tax",
      "{\"disabled_reason\":null,\"enabled\":\(sub.country.taxIncluded),\"liability\":null,\"provider\":null,\"status\":\(sub.country.taxIncluded ? "\"complete\"" : "null")}"
    )
    m.text("billing_reason", inv.billingReason)
    if !new { m.raw("charge", text(charged ? inv.charge : nil)) }
    m.text("collection_method", "charge_automatically")
    m.int("created", inv.periodStart.ms / 1000)
    m.text("currency", code(sub))
    m.raw("custom_fields", "null")
    m.text("customer", sub.customer)
    m.raw("customer_address", "null")
    m.text("customer_email", "u" + String(sub.customer.suffix(6)).lowercased() + "@mail.example")
    m.raw("customer_name", "null")
    m.raw("customer_phone", "null")
    m.raw("customer_shipping", "null")
    m.text("customer_tax_exempt", "none")
    m.raw("customer_tax_ids", "[]")
    m.raw("default_payment_method", "null")
    m.raw("default_source", "null")
    m.raw("default_tax_rates", "[]")
    m.raw("description", "null")
    if !new { m.raw("discount", "null") }
    m.raw("discounts", "[]")
    m.raw("due_date", "null")
    m.int("effective_at", inv.periodStart.ms / 1000 + 3600)
    m.int("ending_balance", 0)
    m.raw("footer", "null")
    m.raw("from_invoice", "null")
    m.text(
      "hosted_invoice_url",
      "https://invoice.stripe.com/i/acct_1" + DemoStripeIds.account + "/live_" + inv.id.suffix(20))
    m.text(
      "invoice_pdf",
      "https://pay.stripe.com/invoice/acct_1" + DemoStripeIds.account + "/live_" + inv.id.suffix(20) + "/pdf")
    m.raw("issuer", "{\"type\":\"self\"}")
    m.raw("last_finalization_error", "null")
    m.raw("latest_revision", "null")
    m.raw("lines", bytes: lines(sub, inv, new: new))
    m.raw("livemode", sub.live ? "true" : "false")
    m.raw("metadata", "{}")
    m.raw("next_payment_attempt", inv.open ? seconds(t.adding(days: 2)) : "null")
    m.text("number", number)
    m.raw("on_behalf_of", "null")
  }

  /// The invoice's members from `paid` on.
  private func invoiceTail(
    _ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice, new: Bool,
    _ m: inout DemoJSONMembers
  ) {
    let paid = !inv.open
    if !new {
      m.raw("paid", paid ? "true" : "false")
      m.raw("paid_out_of_band", "false")
      m.raw("payment_intent", text(inv.free ? nil : inv.intent))
    }
    if new {
      var parent = DemoLine()
      parent.raw("{\"quote_details\":null,\"subscription_details\":{\"metadata\":{},\"subscription\":\"")
      parent.text(sub.id)
      parent.raw("\"},\"type\":\"subscription_details\"}")
      m.raw("parent", bytes: parent.bytes)
      m.raw("payments", bytes: payments(sub, inv))
    }
    m.raw(
      "payment_settings",
      "{\"default_mandate\":null,\"payment_method_options\":null,\"payment_method_types\":null}")
    m.int("period_end", inv.periodStart.ms / 1000)
    m.int("period_start", (sub.invoices.first?.periodStart ?? inv.periodStart).ms / 1000)
    m.int("post_payment_credit_notes_amount", 0)
    m.int("pre_payment_credit_notes_amount", 0)
    if !new { m.raw("quote", "null") }
    m.raw("receipt_number", "null")
    m.raw("rendering", "null")
    m.raw("shipping_cost", "null")
    m.raw("shipping_details", "null")
    m.int("starting_balance", 0)
    m.raw("statement_descriptor", "null")
    m.text("status", paid ? "paid" : "open")
    m.raw(
      "status_transitions",
      "{\"finalized_at\":\(inv.periodStart.ms / 1000 + 3600),\"marked_uncollectible_at\":null,\"paid_at\":\(paid ? seconds(inv.paidAt) : "null"),\"voided_at\":null}"
    )
    if !new {
      m.text("subscription", sub.id)
      m.raw("subscription_details", "{\"metadata\":{}}")
    }
    m.int("subtotal", inv.amount)
    m.int("subtotal_excluding_tax", inv.amount - inv.tax)
    if !new { m.int("tax", inv.tax) }
    m.raw("test_clock", "null")
    m.int("total", inv.amount)
    m.raw("total_discount_amounts", "[]")
    m.int("total_excluding_tax", inv.amount - inv.tax)
    m.raw("total_pretax_credit_amounts", "[]")
    if new {
      m.raw(
        "total_taxes",
        inv.tax == 0
          ? "[]"
          : "[{\"amount\":\(inv.tax),\"tax_behavior\":\"inclusive\",\"tax_rate_details\":{\"tax_rate\":\"txr_1\(DemoStripeIds.account)\(sub.country.alpha2)VAT00000\"},\"taxability_reason\":\"standard_rated\",\"taxable_amount\":\(inv.amount - inv.tax),\"type\":\"tax_rate_details\"}]"
      )
    } else {
      m.raw(
        "total_tax_amounts",
        inv.tax == 0
          ? "[]"
          : "[{\"amount\":\(inv.tax),\"inclusive\":true,\"tax_rate\":\"txr_1\(DemoStripeIds.account)\(sub.country.alpha2)VAT00000\",\"taxability_reason\":\"standard_rated\",\"taxable_amount\":\(inv.amount - inv.tax)}]"
      )
    }
    m.raw("transfer_data", "null")
    m.raw("webhooks_delivered_at", seconds(inv.periodStart.adding(ms: 1000)))
  }

  /// The invoice's `payments` (2025-03-31 on, expanded): its invoice payment through the payment intent.
  private func payments(_ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice) -> [UInt8] {
    let paid = !inv.open
    var payments = DemoLine()
    payments.raw("{\"object\":\"list\",\"data\":[")
    if !inv.free {
      payments.raw("{\"id\":\"")
      payments.text(inv.invoicePayment)
      payments.raw("\",\"object\":\"invoice_payment\",\"amount_paid\":")
      payments.text(paid ? String(inv.amount) : "null")
      payments.raw(",\"amount_requested\":")
      payments.int(inv.amount)
      payments.raw(",\"created\":")
      payments.int(inv.periodStart.ms / 1000 + 3600)
      payments.raw(",\"currency\":\"")
      payments.text(code(sub))
      payments.raw("\",\"invoice\":\"")
      payments.text(inv.id)
      payments.raw("\",\"is_default\":true,\"livemode\":")
      payments.text(sub.live ? "true" : "false")
      payments.raw(",\"payment\":{\"payment_intent\":\"")
      payments.text(inv.intent)
      payments.raw("\",\"type\":\"payment_intent\"},\"status\":\"")
      payments.text(paid ? "paid" : "open")
      payments.raw("\",\"status_transitions\":{\"canceled_at\":null,\"paid_at\":")
      payments.text(paid ? seconds(inv.paidAt) : "null")
      payments.raw("}}")
    }
    payments.raw("],\"has_more\":false,\"total_count\":")
    payments.int(inv.free ? 0 : 1)
    payments.raw(",\"url\":\"/v1/invoice_payments\"}")
    return payments.bytes
  }

  /// The subscription's `items` list: its one item, with the period on it from 2025-03-31 on.
  private func items(_ sub: DemoWebSubscription, period: (Instant, Instant), new: Bool) -> [UInt8] {
    var item = DemoLine()
    item.raw("{\"object\":\"list\",\"data\":[{\"id\":\"")
    item.text(sub.item)
    item.raw("\",\"object\":\"subscription_item\",\"billing_thresholds\":null,\"created\":")
    item.int(sub.created.ms / 1000)
    if new {
      item.raw(",\"current_period_end\":")
      item.int(period.1.ms / 1000)
      item.raw(",\"current_period_start\":")
      item.int(period.0.ms / 1000)
    }
    item.raw(",\"discounts\":[],\"metadata\":{},\"price\":")
    item.bytes += priceObject(sub.price, currencyCode: code(sub), amount: amount(sub), live: sub.live)
    item.raw(",\"quantity\":1,\"subscription\":\"")
    item.text(sub.id)
    item.raw(
      "\",\"tax_rates\":[]}],\"has_more\":false,\"total_count\":1,\"url\":\"/v1/subscription_items?subscription="
    )
    item.text(sub.id)
    item.raw("\"}")
    return item.bytes
  }

  /// The invoice's `lines` list: one line for the subscription's period.
  private func lines(_ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice, new: Bool)
    -> [UInt8]
  {
    var l = DemoLine()
    l.raw("{\"object\":\"list\",\"data\":[{\"id\":\"")
    l.text(inv.line)
    l.raw("\",\"object\":\"line_item\",\"amount\":")
    l.int(inv.amount)
    if !new {
      l.raw(",\"amount_excluding_tax\":")
      l.int(inv.amount - inv.tax)
    }
    l.raw(",\"currency\":\"")
    l.text(code(sub))
    l.raw("\",\"description\":\"1 × Acme Pro (at ")
    l.text(sub.currency.format(inv.amount))
    l.raw(" ")
    l.text(sub.currency.code)
    l.raw(sub.price == .yearly ? " / year)\"" : " / month)\"")
    l.raw(",\"discount_amounts\":[],\"discountable\":true,\"discounts\":[],\"invoice\":\"")
    l.text(inv.id)
    l.raw("\",\"livemode\":")
    l.text(sub.live ? "true" : "false")
    l.raw(",\"metadata\":{}")
    if new {
      l.raw(
        ",\"parent\":{\"invoice_item_details\":null,\"subscription_item_details\":{\"invoice_item\":null,\"proration\":false,\"proration_details\":{\"credited_items\":null},\"subscription\":\""
      )
      l.text(sub.id)
      l.raw("\",\"subscription_item\":\"")
      l.text(sub.item)
      l.raw("\"},\"type\":\"subscription_item_details\"}")
    }
    l.raw(",\"period\":{\"end\":")
    l.int(inv.periodEnd.ms / 1000)
    l.raw(",\"start\":")
    l.int(inv.periodStart.ms / 1000)
    l.raw("}")
    if new {
      l.raw(",\"pretax_credit_amounts\":[],\"pricing\":{\"price_details\":{\"price\":\"")
      l.text(sub.price.id)
      l.raw("\",\"product\":\"")
      l.text(DemoWebSubscription.Price.product)
      l.raw("\"},\"type\":\"price_details\",\"unit_amount_decimal\":\"")
      l.int(inv.amount)
      l.raw("\"},\"quantity\":1,\"taxes\":[]")
    } else {
      l.raw(",\"plan\":null,\"price\":")
      l.bytes += priceObject(sub.price, currencyCode: code(sub), amount: inv.amount, live: sub.live)
      l.raw(
        ",\"proration\":false,\"proration_details\":{\"credited_items\":null},\"quantity\":1,\"subscription\":\""
      )
      l.text(sub.id)
      l.raw("\",\"subscription_item\":\"")
      l.text(sub.item)
      l.raw(
        "\",\"tax_amounts\":[],\"tax_rates\":[],\"type\":\"subscription\",\"unit_amount_excluding_tax\":\"")
      l.int(inv.amount - inv.tax)
      l.raw("\"")
    }
    l.raw("}],\"has_more\":false,\"total_count\":1,\"url\":\"/v1/invoices/")
    l.text(inv.id)
    l.raw("/lines\"}")
    return l.bytes
  }

  func chargeObject(
    _ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice, refunded: Int64, at: Instant
  ) -> DemoJSONMembers {
    let new = at >= DemoStripeWeb.migratedAt
    let last4 = String(inv.charge.suffix(4).utf8.map { Character(String($0 % 10)) })
    var m = DemoJSONMembers()
    m.text("id", inv.charge)
    m.text("object", "charge")
    m.int("amount", inv.amount)
    m.int("amount_captured", inv.amount)
    m.int("amount_refunded", refunded)
    m.raw("application", "null")
    m.raw("application_fee", "null")
    m.raw("application_fee_amount", "null")
    m.text("balance_transaction", inv.balanceTransaction)
    m.raw(
      "billing_details",
      "{\"address\":{\"city\":null,\"country\":\"\(sub.country.alpha2)\",\"line1\":null,\"line2\":null,\"postal_code\":null,\"state\":null},\"email\":null,\"name\":null,\"phone\":null,\"tax_id\":null}"
    )
    m.text("calculated_statement_descriptor", "ACME PRO")
    m.raw("captured", "true")
    m.int("created", inv.paidAt.ms / 1000)
    m.text("currency", code(sub))
    m.text("customer", sub.customer)
    m.text(
      "description",
      inv.billingReason == "subscription_create" ? "Subscription creation" : "Subscription update")
    m.raw("destination", "null")
    m.raw("dispute", text(inv.dispute?.id))
    m.raw("disputed", inv.dispute == nil ? "false" : "true")
    m.raw("failure_balance_transaction", "null")
    m.raw("failure_code", "null")
    m.raw("failure_message", "null")
    m.raw("fraud_details", "{}")
    if !new { m.text("invoice", inv.id) }
    m.raw("livemode", sub.live ? "true" : "false")
    m.raw("metadata", "{}")
    m.raw("on_behalf_of", "null")
    m.raw(
      "outcome",
      "{\"advice_code\":null,\"network_advice_code\":null,\"network_decline_code\":null,\"network_status\":\"approved_by_network\",\"reason\":null,\"risk_level\":\"normal\",\"risk_score\":\(inv.amount % 60 + 5),\"seller_message\":\"Payment complete.\",\"type\":\"authorized\"}"
    )
    m.raw("paid", "true")
    m.text("payment_intent", inv.intent)
    m.text("payment_method", "pm_1" + sub.customer.suffix(9) + DemoStripeIds.account + "Pm")
    m.raw(
      "payment_method_details",
      "{\"card\":{\"amount_authorized\":\(inv.amount),\"brand\":\"visa\",\"checks\":{\"address_line1_check\":null,\"address_postal_code_check\":null,\"cvc_check\":\"pass\"},\"country\":\"\(sub.country.alpha2)\",\"exp_month\":\(1 + inv.amount % 12),\"exp_year\":2029,\"fingerprint\":\"\(sub.customer.suffix(12))Fp2q\",\"funding\":\"credit\",\"last4\":\"\(last4)\",\"network\":\"visa\",\"network_transaction_id\":\"\(inv.amount)\(inv.paidAt.ms / 1000)\",\"three_d_secure\":null,\"wallet\":null},\"type\":\"card\"}"
    )
    m.raw("receipt_email", "null")
    m.raw("receipt_number", "null")
    m.text("receipt_url", "https://pay.stripe.com/receipts/invoices/" + inv.id.suffix(20) + "?s=ap")
    m.raw("refunded", refunded >= inv.amount ? "true" : "false")
    m.raw("review", "null")
    m.raw("shipping", "null")
    m.raw("source_transfer", "null")
    m.raw("statement_descriptor", "null")
    m.raw("statement_descriptor_suffix", "null")
    m.text("status", "succeeded")
    m.raw("transfer_data", "null")
    m.raw("transfer_group", "null")
    return m
  }

  func intentObject(_ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice) -> DemoJSONMembers {
    var m = DemoJSONMembers()
    m.text("id", inv.intent)
    m.text("object", "payment_intent")
    m.int("amount", inv.amount)
    m.int("amount_capturable", 0)
    m.int("amount_received", inv.amount)
    m.text("capture_method", "automatic")
    m.text("client_secret", inv.intent + "_secret_" + inv.charge.suffix(12))
    m.int("created", inv.paidAt.ms / 1000 - 1)
    m.text("currency", code(sub))
    m.text("customer", sub.customer)
    m.text("latest_charge", inv.charge)
    m.raw("livemode", sub.live ? "true" : "false")
    m.raw("metadata", "{}")
    m.raw("payment_method_types", "[\"card\"]")
    m.text("status", "succeeded")
    return m
  }

  func refundObject(
    _ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice,
    _ refund: DemoWebSubscription.MoneyBack
  ) -> DemoJSONMembers {
    var m = DemoJSONMembers()
    m.text("id", refund.id)
    m.text("object", "refund")
    m.int("amount", refund.amount)
    m.text("balance_transaction", refund.balanceTransaction)
    m.text("charge", inv.charge)
    m.int("created", refund.at.ms / 1000)
    m.text("currency", code(sub))
    m.raw(
      "destination_details",
      "{\"card\":{\"reference\":\"\(refund.id.suffix(10))\",\"reference_status\":\"available\",\"reference_type\":\"acquirer_reference_number\",\"type\":\"refund\"},\"type\":\"card\"}"
    )
    m.raw("metadata", "{}")
    m.text("payment_intent", inv.intent)
    m.text("reason", "requested_by_customer")
    m.raw("receipt_number", "null")
    m.raw("source_transfer_reversal", "null")
    m.text("status", "succeeded")
    m.raw("transfer_reversal", "null")
    return m
  }

  func disputeObject(
    _ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice,
    _ dispute: DemoWebSubscription.MoneyBack
  ) -> DemoJSONMembers {
    var m = DemoJSONMembers()
    m.text("id", dispute.id)
    m.text("object", "dispute")
    m.int("amount", dispute.amount)
    m.raw("balance_transactions", "[\"\(dispute.balanceTransaction)\"]")
    m.text("charge", inv.charge)
    m.int("created", dispute.at.ms / 1000)
    m.text("currency", code(sub))
    m.raw(
      "evidence_details",
      "{\"due_by\":\(dispute.at.adding(days: 21).ms / 1000),\"has_evidence\":\(dispute.closedAt != nil),\"past_due\":false,\"submission_count\":\(dispute.closedAt != nil ? 1 : 0)}"
    )
    m.raw("is_charge_refundable", "false")
    m.raw("livemode", sub.live ? "true" : "false")
    m.raw("metadata", "{}")
    m.text("payment_intent", inv.intent)
    m.raw(
      "payment_method_details",
      "{\"card\":{\"brand\":\"visa\",\"case_type\":\"chargeback\",\"network_reason_code\":\"10.4\"},\"type\":\"card\"}"
    )
    m.text("reason", dispute.id.hasSuffix("x") ? "subscription_canceled" : "fraudulent")
    m.text("status", dispute.status)
    return m
  }
}
