// Safety: the view's buffers are the index's own arrays, valid inside `withView` only. Preconditions
// (debug and release, checked once when the view is made): the starts ascend from 0 to the number of
// sources, the entitlement columns have one length, every source names a row. Per-chain reads: assertions.

extension ClaimIndex {
  /// The index read in place, for the chain pass: every chain's claim sources and every source's user
  /// code and activity, without copying or retaining the index's arrays per chain.
  ///
  /// Valid only inside ``withView(_:)`` (the index is a value the view borrows), as are the ``Sources``
  /// it hands out. Making the view checks the index once (preconditions): the starts ascend to the
  /// number of sources, and every source names a row of the credential or entitlement columns; so each
  /// read after that checks its index in debug builds only (an assertion: a per-chain check).
  struct View {
    private let starts: UnsafeBufferPointer<Int32>
    private let sources: UnsafeBufferPointer<Int32>
    private let credentialUsers: UnsafeBufferPointer<UInt64>
    private let entitlementUsers: UnsafeBufferPointer<UInt64>
    private let entitlementActive: UnsafeBufferPointer<Bool>

    fileprivate init(
      starts: UnsafeBufferPointer<Int32>, sources: UnsafeBufferPointer<Int32>,
      credentialUsers: UnsafeBufferPointer<UInt64>, entitlementUsers: UnsafeBufferPointer<UInt64>,
      entitlementActive: UnsafeBufferPointer<Bool>
    ) {
      precondition(
        starts.count >= 1 && Int(starts[starts.count - 1]) == sources.count, "ClaimIndex: bad starts")
      precondition(
        entitlementUsers.count == entitlementActive.count, "ClaimIndex: entitlement columns differ")
      var ascending = starts[0] == 0
      for c in 1..<starts.count { ascending = ascending && starts[c - 1] <= starts[c] }
      precondition(ascending, "ClaimIndex: bad starts")
      var named = true
      for source in sources {
        named =
          named
          && (source >= 0 ? Int(source) < credentialUsers.count : Int(-source - 1) < entitlementUsers.count)
      }
      precondition(named, "ClaimIndex: a source names no row")
      self.starts = starts
      self.sources = sources
      self.credentialUsers = credentialUsers
      self.entitlementUsers = entitlementUsers
      self.entitlementActive = entitlementActive
    }

    /// The number of chains.
    var chainCount: Int { starts.count - 1 }

    /// Chain `c`'s claim sources (`c` a chain index of the ledger).
    @inline(__always)
    func sources(of c: Int) -> Sources {
      assert(c >= 0 && c < starts.count - 1, "ClaimIndex: chain out of range")
      let from = Int(starts[c])
      let to = Int(starts[c + 1])
      assert(from <= to && to <= sources.count, "ClaimIndex: bad starts")
      return Sources(UnsafeBufferPointer(rebasing: sources[from..<to]))
    }

    /// The ``UserCode`` of a source's user.
    @inline(__always)
    func userCode(_ source: Int32) -> UInt64 {
      if source >= 0 {
        assert(Int(source) < credentialUsers.count, "ClaimIndex: credential row out of range")
        return credentialUsers[Int(source)]
      }
      let j = Int(-source - 1)
      assert(j < entitlementUsers.count, "ClaimIndex: entitlement row out of range")
      return entitlementUsers[j]
    }

    /// Whether a source is an entitlement active at T.
    @inline(__always)
    func isActiveEntitlement(_ source: Int32) -> Bool {
      guard source < 0 else { return false }
      let j = Int(-source - 1)
      assert(j < entitlementActive.count, "ClaimIndex: entitlement row out of range")
      return entitlementActive[j]
    }
  }

  /// One chain's claim sources (credential row `i` as `i`, entitlement row `j` as `-(j + 1)`), read in
  /// place; valid only inside the ``withView(_:)`` that made it.
  struct Sources: RandomAccessCollection {
    private let base: UnsafeBufferPointer<Int32>

    fileprivate init(_ base: UnsafeBufferPointer<Int32>) { self.base = base }

    var startIndex: Int { 0 }
    var endIndex: Int { base.count }

    /// Source `i` (in `0..<count`).
    @inline(__always)
    subscript(i: Int) -> Int32 {
      assert(i >= 0 && i < base.count, "ClaimIndex: source out of range")
      return base[i]
    }
  }

  /// Calls `body` with a view of the index.
  @inline(__always)
  func withView<R>(_ body: (View) -> R) -> R {
    starts.withUnsafeBufferPointer { starts in
      sources.withUnsafeBufferPointer { sources in
        credentialUsers.withUnsafeBufferPointer { credentialUsers in
          entitlementUsers.withUnsafeBufferPointer { entitlementUsers in
            entitlementActive.withUnsafeBufferPointer { entitlementActive in
              body(
                View(
                  starts: starts, sources: sources, credentialUsers: credentialUsers,
                  entitlementUsers: entitlementUsers, entitlementActive: entitlementActive))
            }
          }
        }
      }
    }
  }
}
