import StoreReconPlatform

/// A user's claim on a chain: through a credential or a store-sourced entitlement naming it.
struct Claim: Sendable {
  var userId: String
  /// When the user claimed it (credential `claimed_at`, entitlement `starts_at`), if known.
  var at: Instant?
}

/// Who claims which chain, and which entitlements name which chain, as one list per chain (packed:
/// a start per chain into one array of claim sources).
struct ClaimIndex {
  /// `starts[c]..<starts[c + 1]` are chain `c`'s claims in ``sources``.
  let starts: [Int32]
  /// A credential row `i` as `i`, an entitlement row `j` as `-(j + 1)`: credentials first, each in row order.
  let sources: [Int32]

  /// The chain each entitlement row names (-1: none, or not store-sourced), by row.
  let entitlementChains: [Int32]

  /// Per credential row: ``UserCode`` of its user.
  let credentialUsers: [UInt64]
  /// Per entitlement row: ``UserCode`` of its user, and whether it is active at T.
  let entitlementUsers: [UInt64]
  let entitlementActive: [Bool]

  /// The index of who claims which chain; `entitlementChains` is the chain each entitlement row names
  /// (-1: none), as ``LedgerStorage/chainIndexes(_:into:_:)`` finds them.
  init(
    ledger: Ledger, entitlements: PackedEntitlements, credentials: PackedCredentials,
    entitlementChains: [Int32],
    entitlementUsers: [UInt64], entitlementActive: [Bool]
  ) {
    self.entitlementUsers = entitlementUsers
    self.entitlementActive = entitlementActive
    self.entitlementChains = entitlementChains
    let (target, credentialUsers) = ClaimIndex.credentialChains(ledger.storage, credentials)
    self.credentialUsers = credentialUsers
    (starts, sources) = ClaimIndex.group(
      chainCount: ledger.storage.chains.count, credentialChains: target, entitlementChains: entitlementChains)
  }

  /// Which chain each credential row names (-1: none), and its user's code: look-ups on all cores.
  private static func credentialChains(_ s: LedgerStorage, _ credentials: PackedCredentials) -> (
    chains: [Int32], users: [UInt64]
  ) {
    let rows = credentials.rows
    var target = [Int32](repeating: -1, count: rows.count)
    var users = [UInt64](repeating: 0, count: rows.count)
    let parts = Parallel.parts(for: rows.count, minimum: 100_000)
    _ = Parallel.map(parts: parts, filling: &target, &users) { range, out, users in
      s.chainIndexes(range, into: out) { (rows[$0].store, rows[$0].key) }
      for i in range { users[i] = UserCode.of(rows[i].userId) }
      // A credential whose store key names no chain may name it by its order id.
      for i in range where out[i] < 0 {
        let order = credentials.order(i)
        guard !order.isAbsent, order != .empty else { continue }
        out[i] = s.chainIndex(store: rows[i].store, key: order).map { Int32($0) } ?? -1
      }
    }
    return (target, users)
  }

  /// The claim sources grouped by chain (a counting sort): credentials first, then entitlements, each in
  /// row order.
  private static func group(chainCount: Int, credentialChains: [Int32], entitlementChains: [Int32]) -> (
    starts: [Int32], sources: [Int32]
  ) {
    var counts = [Int32](repeating: 0, count: chainCount + 1)
    for c in credentialChains where c >= 0 { counts[Int(c) + 1] += 1 }
    for c in entitlementChains where c >= 0 { counts[Int(c) + 1] += 1 }
    for c in 0..<chainCount { counts[c + 1] += counts[c] }
    var fill = counts
    var sources = [Int32](repeating: 0, count: Int(counts[chainCount]))
    for (i, c) in credentialChains.enumerated() where c >= 0 {
      sources[Int(fill[Int(c)])] = Int32(i)
      fill[Int(c)] += 1
    }
    for (j, c) in entitlementChains.enumerated() where c >= 0 {
      sources[Int(fill[Int(c)])] = -Int32(j) - 1
      fill[Int(c)] += 1
    }
    return (counts, sources)
  }

  /// ``facts(_:_:_:_:)``: an entitlement among the sources is active at T.
  static let anyActive: UInt8 = 1
  /// ``facts(_:_:_:_:)``: the sources name more than one user.
  static let severalUsers: UInt8 = 2

  /// What a chain's claim sources say: ``anyActive`` and ``severalUsers`` flags (users compared by
  /// their codes, by their ids where a code is not exact).
  @inline(always)
  static func facts(
    _ sources: Sources, _ view: View, _ entitlements: PackedEntitlements, _ credentials: PackedCredentials
  ) -> UInt8 {
    guard let first = sources.first else { return 0 }
    var facts: UInt8 = 0
    let firstCode = view.userCode(first)
    for source in sources.dropFirst() {
      let other = view.userCode(source)
      let differs =
        firstCode != UserCode.inexact && other != UserCode.inexact
        ? other != firstCode
        : userId(source, entitlements, credentials) != userId(first, entitlements, credentials)
      if differs {
        facts |= ClaimIndex.severalUsers
        break
      }
    }
    for source in sources where view.isActiveEntitlement(source) {
      facts |= ClaimIndex.anyActive
      break
    }
    return facts
  }

  /// The user id of a claim source.
  @inline(__always)
  static func userId(_ source: Int32, _ entitlements: PackedEntitlements, _ credentials: PackedCredentials)
    -> String
  {
    source >= 0 ? credentials.rows[Int(source)].userId : entitlements.rows[Int(-source - 1)].userId
  }

  /// The claim a source stands for.
  @inline(__always)
  static func claim(_ source: Int32, _ entitlements: PackedEntitlements, _ credentials: PackedCredentials)
    -> Claim
  {
    if source >= 0 {
      let r = credentials.rows[Int(source)]
      return Claim(userId: r.userId, at: r.claimedAt == PackedRecord.none ? nil : Instant(ms: r.claimedAt))
    }
    let r = entitlements.rows[Int(-source - 1)]
    return Claim(userId: r.userId, at: r.startsAt == PackedRecord.none ? nil : Instant(ms: r.startsAt))
  }
}
