import StoreReconCore

/// One row the demo writes to `app/credentials.csv`: a user claimed a store purchase.
struct DemoCredential {
  var store: Store
  var storeKey: String
  var userId: String
  /// Play: the token of the chain this purchase replaced.
  var linkedStoreKey: String?
  /// Play: the chain's first order id.
  var orderId: String?
  var claimedAt: Instant
}
