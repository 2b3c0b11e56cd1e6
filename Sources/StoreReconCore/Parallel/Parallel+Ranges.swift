import StoreReconPlatform

/// The block sizes of the loops that first read ahead what a block will need (its chains, its slots)
/// and then work on it, chosen here once: a rule names the kind of block it walks, not a number. A block
/// is small enough that what it reads ahead stays in the cache while the block's rows use it.
enum BlockSize {
  /// App-row rows whose chains are looked up together before their findings (the entitlement rules).
  static let rows = 64
  /// Chains whose claims are read together before their findings (the chain rules).
  static let chains = 32
  /// Keys looked up together in the ledger's tables while it is built (chain indexes, order bases).
  static let lookups = 16
}

extension Parallel {
  /// How a loop's `count` items are cut into parts: ``Parallel/parts(for:minimum:)`` (one per core) or
  /// ``Parallel/balancedParts(for:minimum:perCore:)`` (several per core, for items of uneven cost).
  enum Split {
    /// One part per core, none smaller than `minimum` items.
    case even(minimum: Int)
    /// Up to `perCore` parts per core, none smaller than `minimum` items.
    case balanced(minimum: Int, perCore: Int = 8)

    /// The number of parts for `count` items.
    @inline(__always)
    func parts(for count: Int) -> Int {
      switch self {
      case .even(let minimum): Parallel.parts(for: count, minimum: minimum)
      case .balanced(let minimum, let perCore):
        Parallel.balancedParts(for: count, minimum: minimum, perCore: perCore)
      }
    }
  }

  /// Runs `body` on each part's items of `0..<count` (cut as `split` says), concurrently when there is
  /// more than one part, and returns the results in part order: the one piece of scaffolding a rule's
  /// parallel loop needs.
  @inline(__always)
  static func map<T>(_ count: Int, _ split: Split, _ body: (Range<Int>) -> T) -> [T] {
    let parts = split.parts(for: count)
    return map(parts: parts) { part in body(range(part, of: parts, count: count)) }
  }
}
