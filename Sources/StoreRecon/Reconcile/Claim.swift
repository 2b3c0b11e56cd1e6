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

  /// The chain each entitlement row names (-1: none, or not store-sourced), by row.
  private(set) var entitlementChains: [Int32]

  init(ledger: Ledger, entitlements: EntitlementTable, credentials: CredentialTable) {
    let s = ledger.storage
    let chainCount = s.chains.count
    // Which chain each credential and store-sourced entitlement names: look-ups on all cores.
    let target = ClaimIndex.lookUp(count: credentials.rows.count) { range, out in
      credentials.rows.withUnsafeBufferPointer { rows in
        s.chainIndexes(range, into: out) { (rows[$0].store, rows[$0].key) }
        // A credential whose store key names no chain may name it by its order id.
        for i in range where out[i] < 0 {
          let order = credentials.order(i)
          guard !order.isAbsent, order != .empty else { continue }
          out[i] = s.chainIndex(store: rows[i].store, key: order).map { Int32($0) } ?? -1
        }
      }
    }
    let entitlementTarget = ClaimIndex.lookUp(count: entitlements.rows.count) { range, out in
      entitlements.rows.withUnsafeBufferPointer { rows in
        s.chainIndexes(range, into: out) { j in
          let key = rows[j].key
          guard let store = rows[j].source.store, !key.isAbsent, key != .empty else { return nil }
          return (store, key)
        }
      }
    }
    entitlementChains = entitlementTarget
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

  /// Fills an array of `count` chain indexes on all cores: `body` fills the rows of one part.
  private static func lookUp(
    count: Int, _ body: (Range<Int>, UnsafeMutableBufferPointer<Int32>) -> Void
  ) -> [Int32] {
    [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
      let parts = Parallel.parts(for: count, minimum: 100_000)
      _ = Parallel.map(parts: parts) { part in body(Parallel.range(part, of: parts, count: count), buffer) }
      initialized = count
    }
  }

  /// Calls `body` with ``starts`` and ``sources``.
  @inline(__always)
  func withSources<R>(_ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) -> R) -> R {
    starts.withUnsafeBufferPointer { starts in sources.withUnsafeBufferPointer { body(starts, $0) } }
  }

  /// Whether every source names the same user.
  static func sameUser(
    _ sources: UnsafeBufferPointer<Int32>, _ entitlements: EntitlementTable, _ credentials: CredentialTable
  ) -> Bool {
    entitlements.rows.withUnsafeBufferPointer { e in
      credentials.rows.withUnsafeBufferPointer { c in
        func user(_ source: Int32) -> String {
          source >= 0 ? c[Int(source)].userId : e[Int(-source - 1)].userId
        }
        guard let first = sources.first else { return true }
        let id = user(first)
        return sources.dropFirst().allSatisfy { user($0) == id }
      }
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
