/// Who bought each chain, and which chains form one lineage: the parts of attribution that do not
/// depend on an experiment.
///
/// - A chain's user is the first claimer among the credentials naming it (`store_key`, or `order_id`,
///   through the ledger's own look-ups: chain key, Play first or renewal order id); earliest
///   `claimed_at`, ties by user id. Without a credential, the chain's account token (Apple
///   `appAccountToken`, Play `obfuscatedExternalAccountId`) is tried per experiment: see
///   ``user(ofLineage:ledger:assigned:)``.
/// - A lineage is a chain with the chains linked to it: a Play chain whose resource's
///   `linkedPurchaseToken` (or, where the resource is missing, its credential's `linked_store_key`)
///   names an older chain belongs to that chain's lineage. The root is the oldest chain.
///
/// Kept packed: per chain the credential row of its first claimer, and the lineages as one array of
/// chain indexes with a start per lineage.
struct ChainUsers {
  /// The credential row of each chain's first claimer (by ledger index), or -1.
  let claimer: [Int32]
  /// Lineage `k` is `members[starts[k]..<starts[k + 1]]`: root first, then the linked chains by
  /// original purchase, then key. Lineages are in root order.
  let starts: [Int32]
  let members: [Int32]
  /// The credentials the claimers are rows of.
  let credentials: CredentialTable

  init(ledger: Ledger, credentials table: CredentialTable) {
    let s = ledger.storage
    let credentials = table.sharing(pool: s.pool)
    self.credentials = credentials
    let count = s.chains.count
    var best = [Int32](repeating: -1, count: count)
    var linkedByCredential: [Int32: Int32] = [:]
    for (i, credential) in credentials.rows.enumerated() {
      var found = s.chainIndex(store: credential.store, key: credential.key)
      if found == nil, !credentials.order(i).isAbsent {
        found = s.chainIndex(store: credential.store, key: credentials.order(i))
      }
      guard let index = found else { continue }
      let current = best[index]
      if current < 0 {
        best[index] = Int32(i)
      } else {
        let kept = credentials.rows[Int(current)]
        let a = credential.claimedAt == PackedRecord.none ? Instant.distantFuture.ms : credential.claimedAt
        let b = kept.claimedAt == PackedRecord.none ? Instant.distantFuture.ms : kept.claimedAt
        if (a, credential.userId) < (b, kept.userId) { best[index] = Int32(i) }
      }
      if !credentials.linked(i).isAbsent, credentials.linked(i) != .empty,
        let parent = s.chainIndex(store: credential.store, key: credentials.linked(i)), parent != index
      {
        let p = Int32(parent)
        linkedByCredential[Int32(index)] = min(linkedByCredential[Int32(index)] ?? p, p)
      }
    }
    claimer = best

    var parent = [Int32](repeating: -1, count: count)
    for i in 0..<count where s.chains[i].store == .play {
      let chain = s.chains[i]
      if chain.status >= 0, case let key = s.statuses[Int(chain.status)].linked, !key.isAbsent, key != .empty,
        let j = s.chainIndex(store: .play, key: key), j != i
      {
        parent[i] = Int32(j)
      } else if let j = linkedByCredential[Int32(i)] {
        parent[i] = j
      }
    }
    var root = [Int32](repeating: 0, count: count)
    for i in 0..<count {
      guard parent[i] >= 0 else {
        root[i] = Int32(i)
        continue
      }
      var current = Int32(i)
      var seen: Set<Int32> = [current]
      while parent[Int(current)] >= 0, seen.insert(parent[Int(current)]).inserted {
        current = parent[Int(current)]
      }
      root[i] = current
    }

    // Group by root (lineages in root order), root first, the others by original purchase then key.
    var sizes = [Int32](repeating: 0, count: count)
    for i in 0..<count { sizes[Int(root[i])] += 1 }
    var starts: [Int32] = []
    var members: [Int32] = []
    starts.reserveCapacity(count + 1)
    members.reserveCapacity(count)
    var others: [Int: [Int32]] = [:]
    for i in 0..<count where root[i] != Int32(i) { others[Int(root[i]), default: []].append(Int32(i)) }
    for r in 0..<count where sizes[r] > 0 {
      starts.append(Int32(members.count))
      members.append(Int32(r))
      guard var linked = others[r] else { continue }
      linked.sort { a, b in
        let x = s.chains[Int(a)].originalPurchaseAt
        let y = s.chains[Int(b)].originalPurchaseAt
        let xa = x == PackedRecord.none ? Instant.distantFuture.ms : x
        let ya = y == PackedRecord.none ? Instant.distantFuture.ms : y
        if xa != ya { return xa < ya }
        return PackedID.less(s.chains[Int(a)].key, s.chains[Int(b)].key, pool: s.pool)
      }
      members.append(contentsOf: linked)
    }
    starts.append(Int32(members.count))
    self.starts = starts
    self.members = members
  }

  /// The number of lineages.
  var lineageCount: Int { starts.count - 1 }

  /// The chains of lineage `k`.
  @inline(__always)
  func lineage(_ k: Int) -> ArraySlice<Int32> { members[Int(starts[k])..<Int(starts[k + 1])] }

  /// The user of a lineage for one experiment: a credential's first claimer (root first, then the
  /// linked chains); else an account token that equals the id of a user assigned in the experiment
  /// (exactly, or ignoring case: Apple writes UUIDs in lower case).
  func user(ofLineage lineage: ArraySlice<Int32>, ledger: Ledger, assigned: AssignedUsers) -> String? {
    for i in lineage where claimer[Int(i)] >= 0 { return credentials.rows[Int(claimer[Int(i)])].userId }
    let s = ledger.storage
    for i in lineage {
      let token = s.chains[Int(i)].accountToken
      if token != 0, let user = assigned.user(matchingToken: s.tokens.string(token - 1)) { return user }
    }
    return nil
  }
}
