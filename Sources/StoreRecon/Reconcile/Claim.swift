/// A user's claim on a chain: through a credential or a store-sourced entitlement naming it.
struct Claim: Sendable {
  var userId: String
  /// When the user claimed it (credential `claimed_at`, entitlement `starts_at`), if known.
  var at: Instant?
}

/// Who claims which chain, and which entitlements name which chain.
struct ClaimIndex {
  var claims: [[Claim]]
  var entitlementsOfChain: [[Int]]

  init(ledger: Ledger, entitlements: [Entitlement], credentials: [Credential]) {
    claims = Array(repeating: [], count: ledger.chains.count)
    entitlementsOfChain = Array(repeating: [], count: ledger.chains.count)
    for credential in credentials {
      var target = ledger.chainIndex(store: credential.store, key: credential.storeKey)
      if target == nil, let order = credential.orderId, !order.isEmpty {
        target = ledger.chainIndex(store: credential.store, key: order)
      }
      if let target { claims[target].append(Claim(userId: credential.userId, at: credential.claimedAt)) }
    }
    for (i, entitlement) in entitlements.enumerated() {
      guard let store = entitlement.source.store, let key = entitlement.storeKey, !key.isEmpty,
        let target = ledger.chainIndex(store: store, key: key)
      else { continue }
      claims[target].append(Claim(userId: entitlement.userId, at: entitlement.startsAt))
      entitlementsOfChain[target].append(i)
    }
  }
}
