import StoreReconPlatform

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
package struct ChainUsers {
  /// The credential row of each chain's first claimer (by ledger index), or -1.
  let claimer: [Int32]
  /// Lineage `k` is `members[starts[k]..<starts[k + 1]]`: root first, then the linked chains by
  /// original purchase, then key. Lineages are in root order.
  let starts: [Int32]
  let members: [Int32]
  /// The credentials the claimers are rows of.
  package let credentials: PackedCredentials

  /// Who bought each chain of `ledger` (from the credential rows of `table`) and which chains form one
  /// lineage.
  init(ledger: Ledger, credentials table: PackedCredentials) {
    let s = ledger.storage
    let credentials = table.sharing(pool: s.pool)
    self.credentials = credentials
    var (chainOf, linkedOf) = ChainUsers.namedChains(s, credentials)
    var linkedByCredential: [Int32]
    (claimer, linkedByCredential) = ChainUsers.firstClaimers(
      chainCount: s.chains.count, credentials, chainOf: chainOf, linkedOf: linkedOf)
    chainOf = []
    linkedOf = []
    var parent = ChainUsers.parents(s, linkedByCredential: linkedByCredential)
    linkedByCredential = []
    let root = ChainUsers.roots(parent)
    parent = []
    // Group by root (lineages in root order), root first, the others by original purchase then key.
    (starts, members) = ChainUsers.group(roots: root) { a, b in
      let x = s.chains[Int(a)].originalPurchaseAt
      let y = s.chains[Int(b)].originalPurchaseAt
      let xa = x == PackedRecord.none ? Instant.distantFuture.ms : x
      let ya = y == PackedRecord.none ? Instant.distantFuture.ms : y
      if xa != ya { return xa < ya }
      if s.chains[Int(a)].key != s.chains[Int(b)].key {
        return PackedID.less(s.chains[Int(a)].key, s.chains[Int(b)].key, pool: s.pool)
      }
      return a < b
    }
  }

  /// Per credential row, the chain it names (its store key, else its order id; -1: none), and for a Play
  /// credential the other chain its linked key names (-1: none): look-ups on all cores. The linked keys,
  /// searched row by row, are looked up after the part's chains, so that the chain look-ups (cache
  /// misses) follow one another.
  static func namedChains(_ s: LedgerStorage, _ credentials: PackedCredentials) -> (
    chains: [Int32], linked: [Int32]
  ) {
    let rowCount = credentials.rows.count
    var chainOf = [Int32](repeating: -1, count: rowCount)
    var linkedOf = [Int32](repeating: -1, count: rowCount)
    let parts = Parallel.parts(for: rowCount, minimum: 100_000)
    _ = Parallel.map(parts: parts, filling: &chainOf, &linkedOf) { range, chainOf, linkedOf in
      for i in range {
        let credential = credentials.rows[i]
        var index = s.chainIndex(store: credential.store, key: credential.key)
        if index == nil, case let order = credentials.order(i), !order.isAbsent {
          index = s.chainIndex(store: credential.store, key: order)
        }
        if let index { chainOf[i] = Int32(index) }
      }
      for i in range where chainOf[i] >= 0 && credentials.rows[i].store == .play {
        if case let linked = credentials.linked(i), !linked.isAbsent, linked != .empty,
          let p = s.chainIndex(store: .play, key: linked), p != Int(chainOf[i])
        {
          linkedOf[i] = Int32(p)
        }
      }
    }
    return (chainOf, linkedOf)
  }

  /// Per chain, the credential row of its first claimer (earliest `claimed_at`, ties by user id; -1:
  /// none), and the oldest chain (smallest index) its credentials name as linked (-1: none).
  static func firstClaimers(
    chainCount count: Int, _ credentials: PackedCredentials, chainOf: [Int32], linkedOf: [Int32]
  ) -> (claimer: [Int32], linked: [Int32]) {
    var best = [Int32](repeating: -1, count: count)
    var linkedByCredential = [Int32](repeating: -1, count: count)
    for i in chainOf.indices where chainOf[i] >= 0 {
      let index = Int(chainOf[i])
      let current = best[index]
      if current < 0 {
        best[index] = Int32(i)
      } else {
        let x = credentials.rows[i].claimedAt
        let y = credentials.rows[Int(current)].claimedAt
        let a = x == PackedRecord.none ? Instant.distantFuture.ms : x
        let b = y == PackedRecord.none ? Instant.distantFuture.ms : y
        if a < b || (a == b && credentials.rows[i].userId < credentials.rows[Int(current)].userId) {
          best[index] = Int32(i)
        }
      }
      let p = linkedOf[i]
      if p >= 0 {
        let kept = linkedByCredential[index]
        linkedByCredential[index] = kept >= 0 ? min(kept, p) : p
      }
    }
    return (best, linkedByCredential)
  }

  /// Each Play chain's parent (-1: none): the chain its resource's linked token names, else the one its
  /// credentials' linked key names (`linkedByCredential`), on all cores.
  static func parents(_ s: LedgerStorage, linkedByCredential: [Int32]) -> [Int32] {
    var parent = [Int32](repeating: -1, count: s.chains.count)
    let parts = Parallel.parts(for: parent.count, minimum: 200_000)
    _ = Parallel.map(parts: parts, filling: &parent) { range, parent in
      for i in range where s.chains[i].store == .play {
        let chain = s.chains[i]
        if chain.status >= 0, case let key = s.statuses[Int(chain.status)].linked, !key.isAbsent,
          key != .empty, let j = s.chainIndex(store: .play, key: key), j != i
        {
          parent[i] = Int32(j)
        } else if linkedByCredential[i] >= 0 {
          parent[i] = linkedByCredential[i]
        }
      }
    }
    return parent
  }

  /// Each chain's root: the end of its walk up its parents (a walk stops where it would come back to a
  /// chain it has passed).
  static func roots(_ parent: [Int32]) -> [Int32] {
    var root = [Int32](repeating: 0, count: parent.count)
    for i in parent.indices {
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
    return root
  }

  /// Lineages from each chain's root (the end of its walk up its parents): one lineage per chain that is
  /// some chain's root, in chain order, that chain first, then the other chains with that root ordered
  /// by `less`. (In a cycle of links the end of a walk is not its own root; its lineage still starts
  /// with it, and it is also a member of its own root's lineage.)
  static func group(roots root: [Int32], by less: (Int32, Int32) -> Bool) -> (
    starts: [Int32], members: [Int32]
  ) {
    let count = root.count
    // fill[r]: chains whose root is r; then where the next of them goes.
    var fill = [Int32](repeating: 0, count: count)
    for i in 0..<count { fill[Int(root[i])] += 1 }
    var total = 0
    for r in 0..<count where fill[r] > 0 { total += Int(fill[r]) + (root[r] == Int32(r) ? 0 : 1) }
    var starts: [Int32] = []
    starts.reserveCapacity(count + 1)
    var members = [Int32](repeating: 0, count: total)
    var next: Int32 = 0
    for r in 0..<count where fill[r] > 0 {
      starts.append(next)
      members[Int(next)] = Int32(r)
      let others = fill[r] - (root[r] == Int32(r) ? 1 : 0)
      fill[r] = next + 1
      next += 1 + others
    }
    starts.append(next)
    for i in 0..<count where root[i] != Int32(i) {
      let r = Int(root[i])
      members[Int(fill[r])] = Int32(i)
      fill[r] += 1
    }
    fill = []
    for k in 0..<(starts.count - 1) where starts[k + 1] - starts[k] > 2 {
      members[Int(starts[k] + 1)..<Int(starts[k + 1])].sort(by: less)
    }
    return (starts, members)
  }

  /// Per credential row, the number of its user in `assigned`, or -1 when not assigned. Rows are
  /// searched one after another from the previous row's place among the users (cheap when the rows
  /// come sorted by user), on all cores. (`credentials` are the rows ``init(ledger:credentials:)`` was
  /// given: the same rows in the same order as ``credentials``.)
  static func claimerNumbers(_ credentials: PackedCredentials, _ assigned: AssignedUsers) -> [Int32] {
    var numbers = [Int32](repeating: -1, count: credentials.rows.count)
    // One hash look-up a row (`String` equality, as ``AssignedUsers/number(of:)``; the first of equal
    // ids) instead of a binary search of the ids: credential rows come in no order of the users'.
    let index = assigned.index()
    let parts = Parallel.parts(for: numbers.count, minimum: 100_000)
    _ = Parallel.map(parts: parts, filling: &numbers) { range, numbers in
      for r in range {
        if let n = index[credentials.rows[r].userId] { numbers[r] = n }
      }
    }
    return numbers
  }

  /// The number of lineages.
  var lineageCount: Int { starts.count - 1 }

  /// The chains of lineage `k`.
  @inline(__always)
  func lineage(_ k: Int) -> ArraySlice<Int32> { members[Int(starts[k])..<Int(starts[k + 1])] }

  /// The user of a lineage for one experiment, by number: a credential's first claimer (root first,
  /// then the linked chains), when assigned; else, without a claimer, an account token that equals the
  /// id of a user assigned in the experiment (exactly, or ignoring case: Apple writes UUIDs in lower
  /// case).
  ///
  /// - Parameters:
  ///   - claimers: the number of each credential row's user (``claimerNumbers(_:_:)``).
  func owner(
    ofLineage lineage: ArraySlice<Int32>, ledger s: LedgerStorage, assigned: AssignedUsers, claimers: [Int32]
  ) -> Int32? {
    for i in lineage where claimer[Int(i)] >= 0 {
      let n = claimers[Int(claimer[Int(i)])]
      return n >= 0 ? n : nil
    }
    for i in lineage {
      let token = s.chains[Int(i)].accountToken
      guard token != 0 else { continue }
      if let n = assigned.number(matchingToken: s.tokens.string(token - 1)) { return n }
    }
    return nil
  }
}
