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
  private(set) var starts: [Int32]
  /// A credential row `i` as `i`, an entitlement row `j` as `-(j + 1)`: credentials first, each in row order.
  private(set) var sources: [Int32]

  init(ledger: Ledger, entitlements: EntitlementTable, credentials: CredentialTable) {
    let s = ledger.storage
    let chainCount = s.chains.count
    // Which chain each credential and store-sourced entitlement names: look-ups on all cores.
    let credentialParts = Parallel.parts(for: credentials.rows.count, minimum: 100_000)
    let target: [Int32] = Parallel.map(parts: credentialParts) { part -> [Int32] in
      var found: [Int32] = []
      for i in Parallel.range(part, of: credentialParts, count: credentials.rows.count) {
        let credential = credentials.rows[i]
        var c = s.chainIndex(store: credential.store, key: credential.key)
        if c == nil, case let order = credentials.order(i), !order.isAbsent, order != .empty {
          c = s.chainIndex(store: credential.store, key: order)
        }
        found.append(c.map { Int32($0) } ?? -1)
      }
      return found
    }.flatMap { $0 }
    let entitlementParts = Parallel.parts(for: entitlements.rows.count, minimum: 100_000)
    let entitlementTarget: [Int32] = Parallel.map(parts: entitlementParts) { part -> [Int32] in
      var found: [Int32] = []
      for j in Parallel.range(part, of: entitlementParts, count: entitlements.rows.count) {
        let e = entitlements.rows[j]
        guard let store = e.source.store, !e.key.isAbsent, e.key != .empty,
          let c = s.chainIndex(store: store, key: e.key)
        else {
          found.append(-1)
          continue
        }
        found.append(Int32(c))
      }
      return found
    }.flatMap { $0 }
    var counts = [Int32](repeating: 0, count: chainCount + 1)
    for c in target where c >= 0 { counts[Int(c) + 1] += 1 }
    for c in entitlementTarget where c >= 0 { counts[Int(c) + 1] += 1 }
    for c in 0..<chainCount { counts[c + 1] += counts[c] }
    starts = counts
    var fill = counts
    sources = [Int32](repeating: 0, count: Int(counts[chainCount]))
    for (i, c) in target.enumerated() where c >= 0 {
      sources[Int(fill[Int(c)])] = Int32(i)
      fill[Int(c)] += 1
    }
    for (j, c) in entitlementTarget.enumerated() where c >= 0 {
      sources[Int(fill[Int(c)])] = -Int32(j) - 1
      fill[Int(c)] += 1
    }
  }

  /// Chain `c`'s claim sources.
  @inline(__always)
  func claims(_ c: Int) -> ArraySlice<Int32> { sources[Int(starts[c])..<Int(starts[c + 1])] }

  /// The claim a source stands for.
  @inline(__always)
  static func claim(_ source: Int32, _ entitlements: EntitlementTable, _ credentials: CredentialTable)
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
