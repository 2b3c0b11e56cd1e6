import StoreReconPlatform

// Safety: `base` is the one allocation of `count` chains (64-byte aligned, from Platform's `Memory`),
// made and fully initialized in `init(count:_:)` and freed once in `deinit`; `count` only shrinks
// (`removeLast`), so every index below it stays inside the allocation. The door checks (debug and
// release) that a table is made with a count that is not negative and fits the address space; each
// index is checked in debug builds (an assertion on the hot path, as the ledger's other buffers do).
// The buffers handed to `withUnsafe…` bodies are valid for the length of the call only.

/// The ledger's chains: ``ChainState`` values (64 bytes each) in one block aligned to 64 bytes, so that
/// every chain is exactly one cache line. (In a Swift `Array`, whose elements follow a 32-byte header in
/// a 16-byte-aligned block, each chain would straddle two lines, and a look-up that reads a chain at
/// random would miss the cache twice.)
///
/// A reference: copies share the chains. Built once, then read (and patched in place) by the ledger.
/// A random-access collection of chains, like the array it replaces.
final class AlignedChains: RandomAccessCollection, @unchecked Sendable {
  private var base: UnsafeMutablePointer<ChainState>?
  /// The number of chains.
  private(set) var count = 0

  /// No chains.
  init() {}

  /// `count` chains, which `initialize` must initialize (every one of them) through the buffer.
  init(count: Int, _ initialize: (UnsafeMutableBufferPointer<ChainState>) -> Void) {
    precondition(
      count >= 0 && count <= Int.max / MemoryLayout<ChainState>.stride, "AlignedChains: bad count \(count)")
    guard count > 0 else { return }
    let raw = Memory.allocate(bytes: count * MemoryLayout<ChainState>.stride, alignment: 64)
    let chains = raw.bindMemory(to: ChainState.self, capacity: count)
    initialize(UnsafeMutableBufferPointer(start: chains, count: count))
    base = chains
    self.count = count
  }

  deinit { Memory.free(base) }

  /// The chain indexes.
  var indices: Range<Int> { 0..<count }
  var startIndex: Int { 0 }
  var endIndex: Int { count }

  /// Whether there is no chain.
  var isEmpty: Bool { count == 0 }

  /// Chain `i` (unchecked beyond a debug assertion).
  @inline(__always)
  subscript(i: Int) -> ChainState {
    get {
      assert(i >= 0 && i < count)
      return base.unsafelyUnwrapped[i]
    }
    set {
      assert(i >= 0 && i < count)
      base.unsafelyUnwrapped[i] = newValue
    }
  }

  /// Whether the chains start on a 64-byte boundary (each chain in one cache line; true when empty).
  var isCacheLineAligned: Bool { Int(bitPattern: base) % 64 == 0 }

  /// Drops the last `n` chains.
  func removeLast(_ n: Int) { count -= Swift.min(n, count) }

  /// Calls `body` with the chains.
  @inline(__always)
  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<ChainState>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  /// Calls `body` with the chains, to change them in place.
  @inline(__always)
  func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<ChainState>) throws -> R)
    rethrows
    -> R
  {
    try body(UnsafeMutableBufferPointer(start: base, count: count))
  }
}
