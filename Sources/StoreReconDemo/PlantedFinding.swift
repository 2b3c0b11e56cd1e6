package import StoreReconCore

/// A finding the demo world was built to contain: what docs/rules.md must report for it.
package struct PlantedFinding: Hashable, Sendable, Comparable {
  /// `orphaned_charge`, `free_entitlement` or `duplicate_claim`.
  package var kind: String
  /// The rule's reason (`unclaimed`, `refunded`, …).
  package var reason: String
  /// The store of the chain.
  package var store: Store
  /// The chain key (for `no_store_record`, the entitlement's store key, which no chain has).
  package var chainKey: String
  /// The user the finding names (empty for `unclaimed`: nobody claimed the purchase).
  package var userId: String

  /// Creates a planted finding.
  package init(kind: String, reason: String, store: Store, chainKey: String, userId: String) {
    self.kind = kind
    self.reason = reason
    self.store = store
    self.chainKey = chainKey
    self.userId = userId
  }

  /// Orders by kind, reason, store, chain key, then user.
  package static func < (lhs: PlantedFinding, rhs: PlantedFinding) -> Bool {
    (lhs.kind, lhs.reason, lhs.store.rawValue, lhs.chainKey, lhs.userId)
      < (rhs.kind, rhs.reason, rhs.store.rawValue, rhs.chainKey, rhs.userId)
  }
}
