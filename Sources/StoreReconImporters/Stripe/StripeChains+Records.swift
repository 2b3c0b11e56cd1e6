import StoreReconCore
import StoreReconIO

extension StripeChains {
  /// A record of chain `key` with the fields every Stripe record has.
  func record(
    _ kind: StoreTransaction.Kind, key: String, id: String, product: String, at: Instant, origin: Origin,
    live: Bool
  ) -> StoreTransaction {
    var t = StoreTransaction(
      store: .stripe, kind: kind, chainKey: key, transactionId: id, productId: product, at: at, origin: origin
    )
    t.environment = live ? .production : .sandbox
    return t
  }

  /// A subscription's free trial, from `trial_start` to `trial_end` (or its end, if it ended sooner).
  mutating func addTrial(_ s: StripeParts.Subscription) {
    guard let start = s.trialStart, var end = s.trialEnd, end > start else { return }
    if let ended = s.endedAt { end = max(start, min(end, ended)) }
    var t = record(
      .purchase, key: s.id, id: s.id + ":trial", product: productName(s.price, lookupKey: s.priceLookupKey),
      at: start, origin: s.origin, live: s.live)
    t.productTypeRaw = "subscription"
    t.isTrial = true
    t.expiresAt = end
    t.originalAt = s.start
    t.accountToken = userId(subscription: s, customer: s.customer)
    records.append(t)
  }

  /// A paid invoice: a charge of its subscription's chain (or a one-time purchase), covering its line's
  /// period; revoked by a full refund or a lost dispute.
  mutating func addInvoice(_ invoice: StripeParts.Invoice) {
    let s = invoice.subscription.flatMap { subscriptions[$0] }
    let key = invoice.subscription ?? invoice.intents.first ?? invoice.charges.first ?? invoice.id
    var t = record(
      .purchase, key: key, id: invoice.id,
      product: productName(invoice.price ?? s?.price, lookupKey: invoice.priceLookupKey ?? s?.priceLookupKey),
      at: invoice.paidAt, origin: invoice.origin, live: invoice.live)
    t.productTypeRaw = invoice.oneTime ? "non_consumable" : "subscription"
    t.amountMinor = invoice.amountPaid
    t.currency = invoice.currency
    t.taxMinor = invoice.tax
    t.quantity = invoice.quantity
    if !invoice.oneTime, var end = invoice.periodEnd {
      if let ended = s?.endedAt { end = max(invoice.paidAt, min(end, ended)) }
      t.expiresAt = end
    }
    t.originalAt = s?.start
    t.accountToken = userId(subscription: s, customer: invoice.customer ?? s?.customer)
    addFeed(invoice: invoice, key: key, product: t.productId, live: invoice.live)
    addMoneyBack(invoice.charges + invoice.intents, to: &t)
  }

  /// A charge without an invoice: a one-time purchase keyed by its payment intent, else its id.
  mutating func addCharge(_ charge: StripeParts.Charge) {
    let product = StripeParts.metadata(charge.metadata, "product_id") ?? ""
    var t = record(
      .purchase, key: charge.intent ?? charge.id, id: charge.id, product: product, at: charge.created,
      origin: charge.origin, live: charge.live)
    t.productTypeRaw = "non_consumable"
    t.amountMinor = charge.amount
    t.currency = charge.currency
    t.accountToken =
      StripeParts.metadata(charge.metadata, userMetadataKey)
      ?? StripeParts.metadata(charge.customer.flatMap { customers[$0] }, userMetadataKey)
    addFeed(charge, key: t.chainKey, invoice: "", product: product)
    addMoneyBack([charge.id] + (charge.intent.map { [$0] } ?? []), to: &t)
  }

  /// The feed lines of a paid invoice: its succeeded charges (the invoice itself where the feed has none
  /// of them) and their refunds.
  mutating func addFeed(invoice: StripeParts.Invoice, key: String, product: String, live: Bool) {
    let paid = invoice.charges.compactMap { charges[$0] }.filter { $0.succeeded && $0.amount > 0 }
    guard paid.isEmpty else {
      for charge in paid.sorted(by: { $0.id < $1.id }) {
        addFeed(charge, key: key, invoice: invoice.id, product: product)
      }
      return
    }
    guard let currency = invoice.currency, invoice.amountPaid > 0 else { return }
    var line = StripeFeedLine(
      kind: .charge, id: invoice.id, chargeId: "", amountMinor: invoice.amountPaid, currency: currency,
      at: invoice.paidAt)
    line.invoiceId = invoice.id
    line.productId = product
    line.live = live
    line.chainKey = key
    feed.append(line)
  }

  /// The feed lines of one charge: the charge and its refunds that went through (not its disputes).
  mutating func addFeed(_ charge: StripeParts.Charge, key: String, invoice: String, product: String) {
    var line = StripeFeedLine(
      kind: .charge, id: charge.id, chargeId: charge.id, amountMinor: charge.amount,
      currency: charge.currency,
      at: charge.created)
    line.invoiceId = invoice
    line.productId = product
    line.live = charge.live
    line.chainKey = key
    feed.append(line)
    var seen = Set<String>()
    for r in (returns[charge.id] ?? []) + (charge.intent.flatMap { returns[$0] } ?? [])
    where !r.dispute && seen.insert(r.id).inserted {
      var refund = StripeFeedLine(
        kind: .refund, id: r.id, chargeId: charge.id, amountMinor: -r.amount, currency: r.currency, at: r.at)
      refund.invoiceId = invoice
      refund.productId = product
      refund.live = r.live
      refund.chainKey = key
      feed.append(refund)
    }
  }

  /// Adds `purchase`, and the money returned on it (its refunds and lost disputes, as one refund record
  /// on the latest one's instant); a return of the whole amount, or a lost dispute, revokes it.
  mutating func addMoneyBack(_ payments: [String], to purchase: inout StoreTransaction) {
    var seen = Set<String>()
    var back: [StripeParts.Return] = []
    for payment in payments {
      for r in returns[payment] ?? [] where r.currency == purchase.currency && seen.insert(r.id).inserted {
        back.append(r)
      }
    }
    guard let last = back.max(by: { ($0.at, $0.id) < ($1.at, $1.id) }) else {
      records.append(purchase)
      return
    }
    var total: Int64 = 0
    for r in back {
      let (sum, overflow) = total.addingReportingOverflow(r.amount)
      total = overflow ? Int64.max : sum
    }
    let lost = back.contains { $0.dispute }
    if lost || total >= purchase.amountMinor {
      purchase.revokedAt = last.at
      purchase.revocationType = lost ? "CHARGEBACK" : "REFUND"
    }
    var refund = purchase
    refund.kind = .refund
    refund.at = last.at
    refund.origin = last.origin
    refund.amountMinor = min(total, purchase.amountMinor)
    refund.expiresAt = nil
    refund.taxMinor = nil
    refund.revokedAt = nil
    refund.revocationType = nil
    refund.isTrial = false
    records.append(purchase)
    records.append(refund)
  }
}
