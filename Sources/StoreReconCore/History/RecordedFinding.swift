/// A finding as the run history keeps it: what identifies it and what was at stake, without the detail.
package struct RecordedFinding: Sendable, Equatable {
  package var key: String
  package var kind: String
  package var reason: String
  package var store: String
  package var chainKey: String
  package var userId: String
  package var productId: String
  /// ISO 4217 code of `amountMinor`; `nil` where no amount is known.
  package var currency: String?
  package var amountMinor: Int64?

  /// Creates a recorded finding.
  package init(
    key: String, kind: String, reason: String, store: String, chainKey: String, userId: String,
    productId: String,
    currency: String?, amountMinor: Int64?
  ) {
    self.key = key
    self.kind = kind
    self.reason = reason
    self.store = store
    self.chainKey = chainKey
    self.userId = userId
    self.productId = productId
    self.currency = currency
    self.amountMinor = amountMinor
  }

  /// The recorded form of a finding of this run.
  package init(_ finding: Finding) {
    self.init(
      key: finding.key, kind: finding.kind.rawValue, reason: finding.reason.rawValue,
      store: finding.store.rawValue,
      chainKey: finding.chainKey, userId: finding.userId, productId: finding.productId,
      currency: finding.currency?.code, amountMinor: finding.amountMinor)
  }
}
