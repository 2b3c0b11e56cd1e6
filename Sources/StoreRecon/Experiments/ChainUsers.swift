/// Who bought each chain, and which chains form one lineage: the parts of attribution that do not
/// depend on an experiment.
///
/// - A chain's user is the first claimer among the credentials naming it (`store_key`, or `order_id`,
///   through the ledger's own look-ups: chain key, Play first or renewal order id); earliest
///   `claimed_at`, ties by user id. Without a credential, the chain's account token (Apple
///   `appAccountToken`, Play `obfuscatedExternalAccountId`) is tried per experiment: see
///   ``user(ofLineage:assigned:)``.
/// - A lineage is a chain with the chains linked to it: a Play chain whose resource's
///   `linkedPurchaseToken` (or, where the resource is missing, its credential's `linked_store_key`)
///   names an older chain belongs to that chain's lineage. The root is the oldest chain.
struct ChainUsers {
  /// The first claimer of each chain (by ledger index), if any credential names it.
  let claimer: [String?]
  /// The lineage root of each chain.
  let root: [Int]
  /// Every lineage: root first, then the linked chains by original purchase, then key.
  let lineages: [[Int]]

  init(ledger: Ledger, credentials: [Credential]) {
    let chains = ledger.chains
    var best: [(at: Instant, user: String)?] = Array(repeating: nil, count: chains.count)
    var linkedByCredential: [Int: Int] = [:]
    for credential in credentials {
      guard
        let index = ledger.chainIndex(store: credential.store, key: credential.storeKey)
          ?? credential.orderId.flatMap({ ledger.chainIndex(store: credential.store, key: $0) })
      else { continue }
      let candidate = (at: credential.claimedAt ?? .distantFuture, user: credential.userId)
      if let current = best[index] {
        if (candidate.at, candidate.user) < (current.at, current.user) { best[index] = candidate }
      } else {
        best[index] = candidate
      }
      if let linked = credential.linkedStoreKey, !linked.isEmpty,
        let parent = ledger.chainIndex(store: credential.store, key: linked), parent != index
      {
        linkedByCredential[index] = min(linkedByCredential[index] ?? parent, parent)
      }
    }
    claimer = best.map { $0?.user }

    var parent: [Int?] = Array(repeating: nil, count: chains.count)
    for (i, chain) in chains.enumerated() where chain.store == .play {
      if let key = chain.status?.linkedChainKey, !key.isEmpty,
        let j = ledger.chainIndex(store: .play, key: key),
        j != i
      {
        parent[i] = j
      } else if let j = linkedByCredential[i] {
        parent[i] = j
      }
    }
    var root = Array(0..<chains.count)
    for i in chains.indices {
      var current = i
      var seen: Set<Int> = [i]
      while let next = parent[current], seen.insert(next).inserted { current = next }
      root[i] = current
    }
    self.root = root
    var members: [Int: [Int]] = [:]
    for i in chains.indices { members[root[i], default: []].append(i) }
    lineages = members.keys.sorted().map { r in
      let others = (members[r] ?? []).filter { $0 != r }.sorted { a, b in
        let x = chains[a].originalPurchaseAt ?? .distantFuture
        let y = chains[b].originalPurchaseAt ?? .distantFuture
        return x != y ? x < y : chains[a].key < chains[b].key
      }
      return [r] + others
    }
  }

  /// The user of a lineage for one experiment: a credential's first claimer (root first, then the
  /// linked chains); else an account token that equals the id of a user assigned in the experiment
  /// (exactly, or ignoring case: Apple writes UUIDs in lower case).
  func user(ofLineage lineage: [Int], ledger: Ledger, assigned: AssignedUsers) -> String? {
    for i in lineage { if let user = claimer[i] { return user } }
    for i in lineage {
      if let token = ledger.chains[i].accountToken, let user = assigned.user(matchingToken: token) {
        return user
      }
    }
    return nil
  }
}
