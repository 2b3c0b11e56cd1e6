/// Everything the store knows about one purchase over its life, and what follows from it as of T: a
/// view of one chain of a ``Ledger``.
///
/// The ledger keeps its chains packed; the properties below unpack on demand (``purchases`` builds
/// ``StoreTransaction`` values), so the rules read the packed form directly and this view serves tests,
/// tools and anything that wants the plain values.
package struct Chain: Sendable {
  /// Why a chain's backing period no longer grants access.
  package enum Revocation: Sendable, Equatable {
    /// Money was returned (Apple refund, Play refund row or voided order).
    case refund(at: Instant, detail: String)
    /// Apple Family Sharing removed the access; no money moved.
    case familySharing(at: Instant)
  }

  let storage: LedgerStorage
  /// The chain's index in the ledger.
  package let index: Int

  init(storage: LedgerStorage, index: Int) {
    self.storage = storage
    self.index = index
  }

  private var state: ChainState { storage.chains[index] }

  /// The store.
  package var store: Store { state.store }
  /// The chain key (Apple original transaction id, Play purchase token or first order id).
  package var key: String { state.key.string(pool: storage.pool) }
  /// Purchases (periods) at or before T, oldest first.
  package var purchases: [StoreTransaction] {
    storage.purchases(index).map { storage.transaction(Int(storage.order[$0]), chain: index) }
  }
  /// Play refund rows at or before T.
  package var refunds: [StoreTransaction] {
    storage.refunds(index).map { storage.transaction(Int(storage.order[$0]), chain: index) }
  }
  /// Play voided purchases at or before T.
  package var voids: [StoreTransaction] {
    storage.voids(index).map { storage.transaction(Int(storage.order[$0]), chain: index) }
  }
  /// Play subscription resource, if one was read (and starts at or before T).
  package var status: StoreTransaction? {
    state.status < 0 ? nil : storage.statusTransaction(Int(state.status), chain: index)
  }

  /// The product the chain grants now.
  package var currentProduct: String? {
    let p = state.currentProduct
    return p == UInt32.max ? nil : storage.products.names[Int(p)]
  }
  /// Latest end of a period the store granted and did not revoke (trials included); `nil` if none.
  package var paidThrough: Instant? {
    let end = state.paidThrough
    return end == PackedRecord.none ? nil : Instant(ms: end)
  }
  /// Set when the period that backs access now was refunded or revoked at or before T.
  package var revocation: Revocation? { state.revoked ? storage.revocations[Int32(index)] : nil }
  /// Where the chain stands in its commitment plan, if the period that backs access now is a payment of
  /// one (Apple monthly with a 12-month commitment, Play installments).
  package var commitment: Commitment? { storage.commitment(index) }
  /// Key of the Play chain that replaced this one (its `linkedPurchaseToken` names this chain).
  package var supersededBy: String? {
    let by = state.supersededBy
    return by < 0 ? nil : storage.chains[Int(by)].key.string(pool: storage.pool)
  }
  /// At least one purchase is a production (non-sandbox, non-test) purchase.
  package var production: Bool { state.production }
  /// The purchase is pending: no money has moved.
  package var pending: Bool { state.pending }
  /// Every purchase is Family Sharing access (not a charge of this customer).
  package var familyShared: Bool { state.familyShared }
  /// Indexes into `purchases` of the production paid charges (amount > 0) not refunded as of T.
  package var paidCharges: [Int] {
    let range = storage.purchases(index)
    return range.indices.filter { storage.record(at: range[$0]).isPaid }.map { $0 - range.lowerBound }
  }

  /// The latest paid charge that was not refunded, if any.
  package var latestPaidCharge: StoreTransaction? {
    guard let k = storage.latestPaid(index) else { return nil }
    return storage.transaction(Int(storage.order[k]), chain: index)
  }

  /// The account token (Apple `appAccountToken`, Play obfuscated account id) the store carries, if any.
  package var accountToken: String? {
    let token = state.accountToken
    return token == 0 ? nil : storage.tokens.string(token - 1)
  }

  /// The instant of the chain's original purchase: the earlier of its first purchase (Apple
  /// `originalPurchaseDate`) and the Play resource's `startTime` (a Play free trial starts before its
  /// first charged order).
  package var originalPurchaseAt: Instant? {
    let at = state.originalPurchaseAt
    return at == PackedRecord.none ? nil : Instant(ms: at)
  }
}
