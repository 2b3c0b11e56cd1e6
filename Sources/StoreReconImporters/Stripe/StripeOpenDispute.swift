package import StoreReconCore

/// A dispute (chargeback) Stripe has not decided yet: the money is at stake, not yet returned
/// (docs/rules.md#stripe).
package struct StripeOpenDispute: Sendable, Equatable {
  /// The statuses of a dispute still open: awaiting the seller's evidence, under the bank's review, or
  /// an inquiry (`warning_…`) that may still become a chargeback. `warning_closed`, `won` and `lost`
  /// are decided.
  package static let openStatuses: Set<String> = [
    "needs_response", "under_review", "warning_needs_response", "warning_under_review",
  ]

  /// `dp_…`.
  package var id: String
  package var status: String
  /// The disputed amount.
  package var money: Money
  /// When it was opened.
  package var at: Instant

  /// Creates the value.
  package init(id: String, status: String, money: Money, at: Instant) {
    (self.id, self.status, self.money, self.at) = (id, status, money, at)
  }

  /// `open dispute dp_… (needs_response, 9.99 USD, opened …)`.
  package var text: String { "open dispute \(id) (\(status), \(money), opened \(at))" }
}
