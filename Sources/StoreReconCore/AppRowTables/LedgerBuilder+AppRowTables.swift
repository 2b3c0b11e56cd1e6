extension LedgerBuilder {
  /// An empty entitlement table sharing this builder's key pool and product names (no text look-ups later).
  package func packedEntitlements() -> PackedEntitlements {
    PackedEntitlements(pool: storage.pool, products: storage.products)
  }

  /// An empty credential table sharing this builder's key pool.
  package func packedCredentials() -> PackedCredentials { PackedCredentials(pool: storage.pool) }
}
