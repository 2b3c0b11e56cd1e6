import StoreReconPlatform

// Safety: each part's block for a rank has room for all the part's chains (a chain makes one entry at
// most) and is freed once, after the merge; a part writes only its own blocks. Preconditions (debug and
// release): one target per chain; the merge hands on every entry made, once.

extension LedgerBuilder {
  /// The live builder chains (those whose `target` is themselves: not merged into another) in the
  /// order of ``ChainSortEntry/less(_:_:pool:)``, on all cores.
  ///
  /// Entries are made on all cores, each part of the builder numbering into one block per store rank
  /// (the first sort key); the blocks (big ones halved) are sorted on all cores, then each rank's
  /// blocks are merged. A block has room for its whole part: only the pages written are ever touched.
  static func sortedLiveChains(_ chains: [BuilderChain], target: [UInt32], pool: TextPool) -> [UInt32] {
    precondition(target.count == chains.count, "sortedLiveChains: a target per chain")
    let n = chains.count
    let ranks = ChainSortEntry.ranks
    let sortParts = Parallel.parts(for: n, minimum: 200_000)
    let blocks = Parallel.map(parts: sortParts) { part -> [UnsafeMutableBufferPointer<ChainSortEntry>] in
      let range = Parallel.range(part, of: sortParts, count: n)
      let room = (0..<ranks).map { _ in
        UnsafeMutablePointer<ChainSortEntry>.allocate(capacity: max(1, range.count))
      }
      var counts = [Int](repeating: 0, count: ranks)
      for c in range where target[c] == UInt32(c) {
        let entry = ChainSortEntry(key: chains[c].key, space: chains[c].space, chain: UInt32(c), pool: pool)
        let rank = Int(entry.rank)
        (room[rank] + counts[rank]).initialize(to: entry)
        counts[rank] += 1
      }
      return (0..<ranks).map { UnsafeMutableBufferPointer(start: room[$0], count: counts[$0]) }
    }
    defer {
      for part in blocks {
        for block in part { block.baseAddress.map { $0.deallocate() } }
      }
    }
    var runs: [[UnsafeMutableBufferPointer<ChainSortEntry>]] = Array(repeating: [], count: ranks)
    for part in blocks {
      for (rank, block) in part.enumerated() where !block.isEmpty {
        if block.count >= 100_000 {
          let half = block.count / 2
          runs[rank].append(UnsafeMutableBufferPointer(rebasing: block[..<half]))
          runs[rank].append(UnsafeMutableBufferPointer(rebasing: block[half...]))
        } else {
          runs[rank].append(block)
        }
      }
    }
    let allRuns = runs.flatMap { $0 }
    if !allRuns.isEmpty {
      _ = Parallel.map(parts: allRuns.count) { i in
        var run = allRuns[i]
        run.sort { ChainSortEntry.less($0, $1, pool: pool) }
      }
    }
    var live: [UInt32] = []
    live.reserveCapacity(n)
    for rank in 0..<ranks { merge(runs[rank], into: &live, pool: pool) }
    let made = allRuns.reduce(0) { $0 + $1.count }
    precondition(live.count == made, "sortedLiveChains: the merge lost or repeated entries")
    return live
  }

  /// Appends the chains of sorted `runs` to `out` in order (the order is total: no two entries are
  /// equal, so the result does not depend on how the entries were split into runs). Runs that follow
  /// one another are copied; others are merged.
  private static func merge(
    _ runs: [UnsafeMutableBufferPointer<ChainSortEntry>], into out: inout [UInt32], pool: TextPool
  ) {
    var runs = runs.filter { !$0.isEmpty }
    var inOrder = true
    for k in runs.indices.dropFirst()
    where ChainSortEntry.less(runs[k][0], runs[k - 1][runs[k - 1].count - 1], pool: pool) {
      inOrder = false
      break
    }
    if inOrder {
      for run in runs {
        for entry in run { out.append(entry.chain) }
      }
      return
    }
    // k-way merge: each step takes the least head.
    var heads = [Int](repeating: 0, count: runs.count)
    while !runs.isEmpty {
      var best = 0
      for k in 1..<runs.count
      where ChainSortEntry.less(runs[k][heads[k]], runs[best][heads[best]], pool: pool) {
        best = k
      }
      out.append(runs[best][heads[best]].chain)
      heads[best] += 1
      if heads[best] == runs[best].count {
        runs.remove(at: best)
        heads.remove(at: best)
      }
    }
  }
}
