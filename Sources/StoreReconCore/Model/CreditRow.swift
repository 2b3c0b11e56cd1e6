/// One row of the credits contract: the app granted units of a consumable (coins, gems, lives) for a
/// store purchase.
package struct CreditRow: Sendable, Equatable {
  package var creditId: String
  package var userId: String
  package var store: Store
  /// The store's transaction id (Apple `transactionId`, Play order id).
  package var transactionId: String
  package var productId: String
  /// Units credited (coins, gems…).
  package var quantity: Int64
  /// When the app credited them; `nil` where the app does not know (read as before T).
  package var creditedAt: Instant?
  /// When the app took them back; `nil` if never.
  package var reversedAt: Instant?
  package var origin: Origin

  /// Creates a credit row.
  package init(
    creditId: String, userId: String, store: Store, transactionId: String, productId: String,
    quantity: Int64, creditedAt: Instant?, reversedAt: Instant?, origin: Origin
  ) {
    self.creditId = creditId
    self.userId = userId
    self.store = store
    self.transactionId = transactionId
    self.productId = productId
    self.quantity = quantity
    self.creditedAt = creditedAt
    self.reversedAt = reversedAt
    self.origin = origin
  }

  /// Credited at or before `t` (a row without `credited_at` counts as credited).
  package func isCredited(at t: Instant) -> Bool { (creditedAt ?? .distantPast) <= t }

  /// Credited at or before `t` and not reversed at or before `t`.
  package func isStanding(at t: Instant) -> Bool {
    isCredited(at: t) && (reversedAt.map { $0 > t } ?? true)
  }
}
