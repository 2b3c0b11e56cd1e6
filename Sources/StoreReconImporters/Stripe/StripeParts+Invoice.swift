import StoreReconCore
import StoreReconIO

extension StripeParts {
  /// Reads an `invoice_payment` object: its `invoice` and the charge or payment intent of its `payment`.
  static func invoicePayment<V: StripeJSON>(_ v: V) throws(RowRejection) -> InvoicePayment {
    guard let invoice = try StripeObject.reference(v, "invoice") else {
      throw RowRejection("missing \"invoice\" (an invoice payment names the invoice it pays)")
    }
    guard let payment = try v.optionalObject("payment") else {
      return InvoicePayment(invoice: invoice, charges: [], intents: [])
    }
    let charge = try StripeObject.reference(payment, "charge")
    let intent = try StripeObject.reference(payment, "payment_intent")
    return InvoicePayment(
      invoice: invoice, charges: charge.map { [$0] } ?? [], intents: intent.map { [$0] } ?? [])
  }

  /// Reads an invoice: its subscription from `subscription` (before 2025-03-31) or
  /// `parent.subscription_details.subscription`; its payments from `charge`/`payment_intent` or
  /// `payments.data[].payment`; its period and price from the line with the latest period end.
  static func invoice<V: StripeJSON>(_ v: V, _ object: Head) throws(RowRejection) -> Invoice {
    let details = try v.optionalObject("parent")?.optionalObject("subscription_details")
    var subscription = try StripeObject.reference(v, "subscription")
    if subscription == nil, let details { subscription = try StripeObject.reference(details, "subscription") }
    let status = try v.optionalText("status") ?? ""
    let paidAmount = try v.optionalInt64("amount_paid") ?? 0
    var invoice = Invoice(
      id: object.id, origin: object.origin, subscription: subscription,
      customer: try StripeObject.reference(v, "customer"), paid: status == "paid" && paidAmount > 0,
      amountPaid: 0, currency: nil, tax: nil, paidAt: Instant.distantPast, periodStart: nil, periodEnd: nil,
      price: nil, priceLookupKey: nil, oneTime: subscription == nil, quantity: 1, charges: [], intents: [],
      live: try live(v))
    if let charge = try StripeObject.reference(v, "charge") { invoice.charges.append(charge) }
    if let intent = try StripeObject.reference(v, "payment_intent") { invoice.intents.append(intent) }
    for payment in try v.optionalObject("payments")?.optionalArray("data") ?? [] {
      guard let inner = try payment.optionalObject("payment") else { continue }
      if let charge = try StripeObject.reference(inner, "charge"), !invoice.charges.contains(charge) {
        invoice.charges.append(charge)
      }
      if let intent = try StripeObject.reference(inner, "payment_intent"), !invoice.intents.contains(intent) {
        invoice.intents.append(intent)
      }
    }
    var paidAt: Instant?
    if let transitions = try v.optionalObject("status_transitions") {
      paidAt = try StripeObject.instant(transitions, "paid_at", within: object.window)
    }
    if paidAt == nil { paidAt = try StripeObject.instant(v, "created", within: object.window) }
    invoice.paidAt = paidAt ?? Instant.distantPast
    try line(v, into: &invoice, within: object.window)
    guard invoice.paid else { return invoice }
    let currency = try currency(v)
    invoice.currency = currency
    invoice.amountPaid = try amount(v, "amount_paid", currency)
    invoice.tax = try tax(v, currency)
    return invoice
  }

  /// The invoice's tax: `tax` before 2025-03-31, the sum of `total_taxes[].amount` after.
  static func tax<V: StripeJSON>(_ v: V, _ currency: Currency) throws(RowRejection) -> Int64? {
    if v["tax"] != nil { return try amount(v, "tax", currency) }
    guard let taxes = try v.optionalArray("total_taxes") else { return nil }
    var sum: Int64 = 0
    for tax in taxes {
      let (total, overflow) = sum.addingReportingOverflow(try amount(tax, "amount", currency))
      guard !overflow else { throw RowRejection("total_taxes: the sum does not fit") }
      sum = total
    }
    return sum
  }

  /// The line with the latest period end: its period, price and quantity.
  static func line<V: StripeJSON>(_ v: V, into invoice: inout Invoice, within window: StoreTimeWindow)
    throws(RowRejection)
  {
    var best: V?
    var bestEnd: Int64 = -1
    for line in try v.optionalObject("lines")?.optionalArray("data") ?? [] {
      var end: Int64?
      if let period = try line.optionalObject("period") { end = try StripeObject.seconds(period, "end") }
      if let end, end > bestEnd {
        bestEnd = end
        best = line
      } else if best == nil {
        best = line
      }
    }
    guard let line = best else { return }
    if let period = try line.optionalObject("period") {
      invoice.periodStart = try StripeObject.instant(period, "start", within: window)
      invoice.periodEnd = try StripeObject.instant(period, "end", within: window)
    }
    let details = try line.optionalObject("pricing")?.optionalObject("price_details")
    if let price = try price(line["price"] ?? details?["price"] ?? line["plan"]) {
      invoice.price = price.id
      invoice.priceLookupKey = price.lookupKey
    }
    if let embedded = line["price"], embedded.isObject {
      let type = try embedded.optionalText("type")
      invoice.oneTime = invoice.subscription == nil && type != "recurring"
    }
    if let quantity = try line.optionalInt64("quantity"), quantity > 0 {
      invoice.quantity = UInt16(clamping: quantity)
    }
  }
}
