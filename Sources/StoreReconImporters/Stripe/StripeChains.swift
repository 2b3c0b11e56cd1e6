import StoreReconCore
import StoreReconIO

/// Turns Stripe's objects (each id's latest state) into normalised records: a subscription is a chain
/// keyed by its id, its paid invoices its charges; a one-time purchase is keyed by its payment intent
/// (else its charge); refunds and lost disputes are money returned, and a full refund or lost dispute
/// of a charge revokes its period (docs/rules.md#stripe).
struct StripeChains {
  let objects: [StripeObject.Kind: [String: StripeObject]]
  let userMetadataKey: String
  /// The records built, and the lines rejected with their reasons.
  var records: [StoreTransaction] = []
  var rejected: [(Origin, String)] = []
  /// The charges and refunds behind the records, for the tie-out (docs/tieout.md#stripe-charges-and-refunds).
  var feed: [StripeFeedLine] = []

  var lookupKeys: [String: String] = [:]
  var customers: [String: StripeParts.Metadata] = [:]
  var subscriptions: [String: StripeParts.Subscription] = [:]
  var invoices: [StripeParts.Invoice] = []
  var charges: [String: StripeParts.Charge] = [:]
  /// The charges by id (each kind's objects are read in id order, so that the records come out in the
  /// same order whatever the input order).
  var chargesInOrder: [StripeParts.Charge] = []
  var invoiceOfCharge: [String: Int] = [:]
  var invoiceOfIntent: [String: Int] = [:]
  /// Money returned per charge (refunds that succeeded, lost disputes): the returns and their total.
  var returns: [String: [StripeParts.Return]] = [:]
  /// Ids that name a chain other than by its key (an invoice, its payment intents and charges; a
  /// one-time charge), mapped to the chain key.
  var aliases: [String: String] = [:]
  /// Disputes still open (live mode): money at stake, named in the findings about their chain.
  var openDisputes: [StripeParts.Return] = []

  init(objects: [StripeObject.Kind: [String: StripeObject]], userMetadataKey: String) {
    self.objects = objects
    self.userMetadataKey = userMetadataKey
  }

  /// Objects of `kind`, by id (so that the records come out in the same order whatever the input order).
  func sorted(_ kind: StripeObject.Kind) -> [StripeObject] {
    IdOrder.sorted(Array((objects[kind] ?? [:]).values)) { $0.id }
  }

  /// What was read of each object of `kind` as `part`; an object that could not be read rejects its line.
  mutating func each<T>(_ kind: StripeObject.Kind, _ part: KeyPath<StripePart, T?>) -> [T] {
    var out: [T] = []
    for object in sorted(kind) {
      switch object.part {
      case .success(let read):
        if let value = read[keyPath: part] { out.append(value) }
      case .failure(let error):
        rejected.append((object.origin, "\(kind.rawValue) \(RawText.truncated(object.id)): \(error.reason)"))
      }
    }
    return out
  }

  mutating func build() {
    for price in sorted(.price) {
      if let key = try? price.part.get().lookupKey, !key.isEmpty { lookupKeys[price.id] = key }
    }
    for customer in sorted(.customer) { customers[customer.id] = try? customer.part.get().customer }
    let subscriptionsInOrder = each(.subscription, \.subscription)
    for s in subscriptionsInOrder { subscriptions[s.id] = s }
    invoices = each(.invoice, \.invoice)
    linkInvoicePayments()
    chargesInOrder = each(.charge, \.charge)
    for c in chargesInOrder { charges[c.id] = c }
    for (n, invoice) in invoices.enumerated() {
      for charge in invoice.charges { invoiceOfCharge[charge] = n }
      for intent in invoice.intents { invoiceOfIntent[intent] = n }
    }
    linkCharges()
    collectAliases()
    collectReturns()
    for s in subscriptionsInOrder { addTrial(s) }
    for invoice in invoices where invoice.paid { addInvoice(invoice) }
    for charge in chargesInOrder
    where charge.succeeded && charge.amount > 0 && invoiceOfCharge[charge.id] == nil {
      addCharge(charge)
    }
  }

  /// Puts each charge on its invoice: the invoice names it (before 2025-03-31), the charge names the
  /// invoice (before 2025-03-31), or they share a payment intent (from 2025-03-31 on).
  mutating func linkCharges() {
    var invoiceIndex: [String: Int] = [:]
    for (n, invoice) in invoices.enumerated() { invoiceIndex[invoice.id] = n }
    for charge in chargesInOrder {
      var found = invoiceOfCharge[charge.id]
      if found == nil, let invoice = charge.invoice { found = invoiceIndex[invoice] }
      if found == nil, let intent = charge.intent { found = invoiceOfIntent[intent] }
      guard let n = found else { continue }
      invoiceOfCharge[charge.id] = n
      if !invoices[n].charges.contains(charge.id) { invoices[n].charges.append(charge.id) }
      if let intent = charge.intent, !invoices[n].intents.contains(intent) {
        invoices[n].intents.append(intent)
      }
    }
  }

  /// Puts the payment of each `invoice_payment` object read on its own (a `GET /v1/invoice_payments`
  /// export or a webhook, from 2025-03-31 on) on its invoice, as the invoice's expanded `payments` would:
  /// without it, an invoice of that shape names no payment and its charge would be a one-time purchase.
  mutating func linkInvoicePayments() {
    var invoiceIndex: [String: Int] = [:]
    for (n, invoice) in invoices.enumerated() { invoiceIndex[invoice.id] = n }
    for payment in each(.invoicePayment, \.invoicePayment) {
      guard let n = invoiceIndex[payment.invoice] else { continue }
      for charge in payment.charges where !invoices[n].charges.contains(charge) {
        invoices[n].charges.append(charge)
      }
      for intent in payment.intents where !invoices[n].intents.contains(intent) {
        invoices[n].intents.append(intent)
      }
    }
  }

  /// The chain key of every invoice's id, payment intents and charges, and of every other charge's id.
  mutating func collectAliases() {
    aliases.reserveCapacity(invoices.count * 3)
    for invoice in invoices {
      let key = invoice.subscription ?? invoice.intents.first ?? invoice.charges.first ?? invoice.id
      if invoice.id != key { aliases[invoice.id] = key }
      for id in invoice.intents where id != key { aliases[id] = key }
      for id in invoice.charges where id != key { aliases[id] = key }
    }
    for charge in charges.values where invoiceOfCharge[charge.id] == nil {
      if let intent = charge.intent, intent != charge.id { aliases[charge.id] = intent }
    }
  }

  /// Refunds that succeeded and disputes the seller lost, per charge.
  mutating func collectReturns() {
    for refund in each(.refund, \.moneyBack) where refund.status == "succeeded" {
      returns[refund.charge ?? refund.intent ?? refund.id, default: []].append(refund)
    }
    let disputes = each(.dispute, \.moneyBack)
    for dispute in disputes where dispute.status == "lost" {
      returns[dispute.charge ?? dispute.intent ?? dispute.id, default: []].append(dispute)
    }
    openDisputes = disputes.filter { $0.live && StripeOpenDispute.openStatuses.contains($0.status) }
  }

  /// The product name of a price: its lookup key where set, else its id.
  func productName(_ price: String?, lookupKey: String?) -> String {
    guard let price else { return "" }
    return lookupKey ?? lookupKeys[price] ?? price
  }

  /// The app's user a subscription or customer names in its metadata.
  func userId(subscription: StripeParts.Subscription?, customer: String?) -> String? {
    StripeParts.metadata(subscription?.metadata, userMetadataKey)
      ?? StripeParts.metadata(customer.flatMap { customers[$0] }, userMetadataKey)
  }
}
