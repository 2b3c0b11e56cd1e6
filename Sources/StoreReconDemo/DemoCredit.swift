import StoreReconCore

/// One row the demo writes to `app/credits.csv`: the app credited coins for a store purchase.
struct DemoCredit {
  var creditId: String
  var userId: String
  var store: Store
  /// The store's transaction id (Apple `transactionId`).
  var transactionId: String
  var productId: String
  /// Units credited.
  var quantity: Int64
  var creditedAt: Instant
  var reversedAt: Instant?
}
