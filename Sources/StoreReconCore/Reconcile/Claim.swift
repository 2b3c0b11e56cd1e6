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
  private(set) var starts: [Int32]
  /// A credential row `i` as `i`, an entitlement row `j` as `-(j + 1)`: credentials first, each in row order.
  private(set) var sources: [Int32]

  /// The chain each entitlement row names (-1: none, or not store-sourced), by row.
  private(set) var entitlementChains: [Int32]

  /// The index of who claims which chain; `entitlementChains` is the chain each entitlement row names
  /// (-1: none), as ``LedgerStorage/chainIndexes(_:into:_:)`` finds them.
  /// Per credential row: ``UserCode`` of its user.
  private let credentialUsers: [UInt64]
  /// Per entitlement row: ``UserCode`` of its user, and whether it is active at T.
  private let entitlementUsers: [UInt64]
  private let entitlementActive: [Bool]

  init(
    ledger: Ledger, entitlements: EntitlementTable, credentials: CredentialTable, entitlementChains: [Int32],
    entitlementUsers: [UInt64], entitlementActive: [Bool]
  ) {
    self.entitlementUsers = entitlementUsers
    self.entitlementActive = entitlementActive
    var credentialUsers = [UInt64](repeating: 0, count: credentials.rows.count)
    let s = ledger.storage
    let chainCount = s.chains.count
    // Which chain each credential names (and its user's code): look-ups on all cores.
    let target = credentialUsers.withUnsafeMutableBufferPointer { users in
      ClaimIndex.lookUp(count: credentials.rows.count) { range, out in
        credentials.rows.withUnsafeBufferPointer { rows in
          s.chainIndexes(range, into: out) { (rows[$0].store, rows[$0].key) }
          for i in range { users[i] = UserCode.of(rows[i].userId) }
          // A credential whose store key names no chain may name it by its order id.
          for i in range where out[i] < 0 {
            let order = credentials.order(i)
            guard !order.isAbsent, order != .empty else { continue }
            out[i] = s.chainIndex(store: rows[i].store, key: order).map { Int32($0) } ?? -1
          }
        }
      }
    }
    self.credentialUsers = credentialUsers
    let entitlementTarget = entitlementChains
    self.entitlementChains = entitlementChains
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

  /// ``facts(_:_:_:asOf:)``: an entitlement among the sources is active at T.
  static let anyActive: UInt8 = 1
  /// ``facts(_:_:_:asOf:)``: the sources name more than one user.
  static let severalUsers: UInt8 = 2

  /// What a chain's claim sources say: ``anyActive`` and ``severalUsers`` flags (users compared by
  /// their codes, by their ids where a code is not exact).
  @inline(__always)
  func facts(
    _ sources: Slice<UnsafeBufferPointer<Int32>>, _ entitlements: UnsafeBufferPointer<EntitlementTable.Row>,
    _ credentials: UnsafeBufferPointer<CredentialTable.Row>
  ) -> UInt8 {
    guard let first = sources.first else { return 0 }
    var facts: UInt8 = 0
    credentialUsers.withUnsafeBufferPointer { credentialUsers in
      entitlementUsers.withUnsafeBufferPointer { entitlementUsers in
        entitlementActive.withUnsafeBufferPointer { active in
          func code(_ source: Int32) -> UInt64 {
            source >= 0 ? credentialUsers[Int(source)] : entitlementUsers[Int(-source - 1)]
          }
          func user(_ source: Int32) -> String {
            source >= 0 ? credentials[Int(source)].userId : entitlements[Int(-source - 1)].userId
          }
          let firstCode = code(first)
          for source in sources.dropFirst() {
            let other = code(source)
            let differs =
              firstCode != UserCode.inexact && other != UserCode.inexact
              ? other != firstCode : user(source) != user(first)
            if differs {
              facts |= ClaimIndex.severalUsers
              break
            }
          }
          for source in sources where source < 0 && active[Int(-source - 1)] {
            facts |= ClaimIndex.anyActive
            break
          }
        }
      }
    }
    return facts
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
