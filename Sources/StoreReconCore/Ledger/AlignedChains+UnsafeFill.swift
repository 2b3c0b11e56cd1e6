import StoreReconPlatform

// Safety: each part writes only its own positions of the table, each exactly once, in order.
// Preconditions (debug and release): a filler's range lies inside the table, it appends no more chains
// than its positions, and every part filled all of them before the table is used.

extension AlignedChains {
  /// One part's chains while a table is made on all cores: appended in position order, from the
  /// part's first position to its last, each exactly once (preconditions).
  struct Filler {
    private let states: UnsafeMutableBufferPointer<ChainState>
    private let end: Int
    /// The position the next chain goes to.
    private(set) var next: Int

    fileprivate init(_ states: UnsafeMutableBufferPointer<ChainState>, _ range: Range<Int>) {
      precondition(
        range.lowerBound >= 0 && range.upperBound <= states.count, "AlignedChains.Filler: bad range")
      self.states = states
      end = range.upperBound
      next = range.lowerBound
    }

    /// Sets the chain at position ``next``.
    @inline(__always)
    mutating func append(_ chain: ChainState) {
      precondition(next < end, "AlignedChains.Filler: more chains than the part's positions")
      (states.baseAddress.unsafelyUnwrapped + next).initialize(to: chain)
      next += 1
    }

    /// Whether every position of the part has its chain.
    var isComplete: Bool { next == end }
  }

  /// A table of `count` chains made on all cores: positions `0..<count` are cut into `parts` parts (as
  /// `Parallel.range` cuts them) and `body` appends each part's chains, every one of them; returns the
  /// table and each part's result, in part order.
  static func made<T>(count: Int, parts: Int, _ body: (Range<Int>, inout Filler) -> T) -> (
    table: AlignedChains, parts: [T]
  ) {
    var results: [T] = []
    let table = AlignedChains(count: count) { states in
      results = Parallel.map(parts: parts) { part in
        let range = Parallel.range(part, of: parts, count: count)
        var filler = Filler(states, range)
        let result = body(range, &filler)
        precondition(filler.isComplete, "AlignedChains.made: a part left chains unset")
        return result
      }
    }
    return (table, results)
  }
}
