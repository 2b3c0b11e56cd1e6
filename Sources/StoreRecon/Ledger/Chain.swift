/// Everything the store knows about one purchase over its life, and what follows from it as of T.
///
/// Built by ``LedgerBuilder``; the derived fields are computed once for the run's as-of instant.
public struct Chain: Sendable {
  /// Why a chain's backing period no longer grants access.
  public enum Revocation: Sendable, Equatable {
    /// Money was returned (Apple refund, Play refund row or voided order).
    case refund(at: Instant, detail: String)
    /// Apple Family Sharing removed the access; no money moved.
    case familySharing(at: Instant)
  }

  /// The store.
  public var store: Store
  /// The chain key (Apple original transaction id, Play purchase token or first order id).
  public var key: String
  /// Purchases (periods) at or before T, oldest first.
  public var purchases: [StoreTransaction] = []
  /// Play refund rows at or before T.
  public var refunds: [StoreTransaction] = []
  /// Play voided purchases at or before T.
  public var voids: [StoreTransaction] = []
  /// Play subscription resource, if one was read.
  public var status: StoreTransaction?
  /// Play: every first-order id of this chain (order ids without `..N`).
  public var orderBaseIds: [String] = []

  // Derived as of T.
  /// The product the chain grants now.
  public var currentProduct: String?
  /// Latest end of a period the store granted and did not revoke (trials included); `nil` if none.
  public var paidThrough: Instant?
  /// Set when the period that backs access now was refunded or revoked at or before T.
  public var revocation: Revocation?
  /// Key of the Play chain that replaced this one (its `linkedPurchaseToken` names this chain).
  public var supersededBy: String?
  /// At least one purchase is a production (non-sandbox, non-test) purchase.
  public var production = true
  /// The purchase is pending: no money has moved.
  public var pending = false
  /// Every purchase is Family Sharing access (not a charge of this customer).
  public var familyShared = false
  /// Indexes into `purchases` of the production paid charges (amount > 0) not refunded as of T.
  public var paidCharges: [Int] = []

  /// Creates an empty chain.
  public init(store: Store, key: String) {
    self.store = store
    self.key = key
  }

  /// The latest paid charge that was not refunded, if any.
  public var latestPaidCharge: StoreTransaction? { paidCharges.last.map { purchases[$0] } }

  /// The account token (Apple `appAccountToken`, Play obfuscated account id) the store carries, if any.
  public var accountToken: String? {
    status?.accountToken ?? purchases.lazy.compactMap(\.accountToken).first
  }

  /// The first account token seen, whose storage later records share.
  var accountTokenShared: String? {
    purchases.first?.accountToken ?? status?.accountToken
  }

  /// The instant of the chain's original purchase: the earlier of its first purchase (Apple
  /// `originalPurchaseDate`) and the Play resource's `startTime` (a Play free trial starts before its
  /// first charged order).
  public var originalPurchaseAt: Instant? {
    var earliest: Instant?
    if let first = purchases.first { earliest = first.originalAt ?? first.at }
    if let status, status.at != .distantPast { earliest = min(earliest ?? status.at, status.at) }
    return earliest
  }
}
