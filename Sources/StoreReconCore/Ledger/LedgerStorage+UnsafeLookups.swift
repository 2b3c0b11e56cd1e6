import StoreReconPlatform

// Safety: `chainIndexes` writes `out[range]` only, and the door checks (debug and release) that `range`
// lies inside `out`. It reads the chain key index slots and the chains through buffers borrowed for the
// length of the call (``ChainKeyIndex/withSlots(_:)``, `AlignedChains.withUnsafeBufferPointer`), at
// `hash & mask` (`mask` is the slot count − 1, a power of two) and at a slot's chain number, which the
// index took from these same chains (``ChainKeyIndex/checkInvariants(chains:_:)`` holds both); the
// temporary blocks hold `BlockSize.lookups` entries and a block never has more rows. The part-window
// form writes only rows inside the part's window (a precondition of PartSlots, debug and release);
// the window is valid only inside the parallel fill that made it.

extension LedgerStorage {
  /// The chains that `count` keys name, as `chainIndex(store:key:)` finds them (-1 for none;
  /// `query` gives row `i`'s store and key, or `nil` for a row that names no chain), for rows `range`
  /// into `out[range]`.
  ///
  /// Look-ups go in blocks: first every key's home slot is read, then every candidate chain's key, so
  /// that the cache misses of one block overlap instead of following one another.
  func chainIndexes(
    _ range: Range<Int>, into out: UnsafeMutableBufferPointer<Int32>,
    _ query: (Int) -> (store: Store, key: PackedID)?
  ) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= out.count,
      "LedgerStorage.chainIndexes: rows \(range) outside a buffer of \(out.count)")
    let block = BlockSize.lookups
    withUnsafeTemporaryAllocation(of: PackedID.self, capacity: block) { keys in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: block) { first in
        index[0].withSlots { appSlots, appMask in
          index[1].withSlots { playSlots, playMask in
            index[2].withSlots { stripeSlots, stripeMask in
              chains.withUnsafeBufferPointer { chains in
                var start = range.lowerBound
                while start < range.upperBound {
                  let n = min(block, range.upperBound - start)
                  // Home slots: 0 = nothing there (or no query); the row's store in `out` meanwhile.
                  for j in 0..<n {
                    first[j] = 0
                    guard let (store, key) = query(start + j) else {
                      out[start + j] = -2
                      continue
                    }
                    keys[j] = key
                    let slot = LedgerStorage.slot(store)
                    out[start + j] = Int32(slot)
                    let slots = slot == 0 ? appSlots : (slot == 1 ? playSlots : stripeSlots)
                    guard !slots.isEmpty else { continue }
                    let mask = slot == 0 ? appMask : (slot == 1 ? playMask : stripeMask)
                    first[j] = slots[ChainKeyIndex.hash(key) & mask]
                  }
                  // Candidates: a home slot holding the key answers; anything else takes the full look-up.
                  for j in 0..<n {
                    let slot = out[start + j]
                    if slot == -2 {
                      out[start + j] = -1
                      continue
                    }
                    let candidate = first[j]
                    if candidate != 0 && chains[Int(candidate - 1)].key == keys[j] {
                      out[start + j] = Int32(candidate - 1)
                    } else {
                      let store: Store = slot == 0 ? .appStore : (slot == 1 ? .play : .stripe)
                      out[start + j] = chainIndex(store: store, key: keys[j]).map { Int32($0) } ?? -1
                    }
                  }
                  start += n
                }
              }
            }
          }
        }
      }
    }
  }

  /// ``chainIndexes(_:into:_:)`` into one part's window of a parallel fill: the chains that rows `rows`
  /// name (-1 for none), into `out[rows]`, which must lie in the window's range.
  @inline(__always)
  func chainIndexes(
    _ rows: Range<Int>, into out: PartSlots<Int32>, _ query: (Int) -> (store: Store, key: PackedID)?
  ) {
    out.withUnsafeMutableBufferPointer(covering: rows) { chainIndexes(rows, into: $0, query) }
  }
}
