/// One Stripe charge or refund of the transaction feed (`stripe.objects`), as the tie-out against
/// Stripe's balance report sees it (docs/tieout.md#stripe-charges-and-refunds).
package struct StripeFeedLine: Sendable, Equatable {
  /// A charge, or a refund of one.
  package enum Kind: String, Sendable {
    case charge
    case refund
  }

  package var kind: Kind
  /// The charge id (`ch_…`/`py_…`), the refund id (`re_…`), or, for a paid invoice whose charge the feed
  /// lacks, the invoice id (`in_…`).
  package var id: String
  /// The charge a refund belongs to (a charge's own id).
  package var chargeId: String
  /// The invoice of the charge, where there is one.
  package var invoiceId: String = ""
  /// The amount, minor units of ``currency``: positive for a charge, negative for a refund.
  package var amountMinor: Int64
  package var currency: Currency
  /// When the charge was made or the refund went through.
  package var at: Instant
  /// The product name (price lookup key or id), empty where unknown.
  package var productId: String = ""
  /// Live mode (test-mode objects are not in the balance report).
  package var live: Bool = true
  /// The chain the charge belongs to (a subscription id, else a payment intent or charge id): a
  /// partition carries the lines of its own chains (docs/partitions.md).
  package var chainKey: String = ""

  /// Creates a line.
  package init(kind: Kind, id: String, chargeId: String, amountMinor: Int64, currency: Currency, at: Instant)
  {
    self.kind = kind
    self.id = id
    self.chargeId = chargeId
    self.amountMinor = amountMinor
    self.currency = currency
    self.at = at
  }
}
