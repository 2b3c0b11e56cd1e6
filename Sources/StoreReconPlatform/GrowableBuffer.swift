#if canImport(Glibc)
  import Glibc
#endif

/// A growable array of plain values in one `malloc` block, grown with `realloc`.
///
/// For big blocks the C library moves pages instead of copying them (`mremap`), so growing a buffer of
/// hundreds of megabytes neither copies it nor needs the old and the new block at once, as a Swift
/// `Array` does when it doubles.
package final class GrowableBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
  package private(set) var base: UnsafeMutablePointer<Element>?
  /// Elements held.
  package private(set) var count = 0
  private var capacity = 0

  /// An empty buffer.
  package init() {}

  deinit { Memory.free(base) }

  /// Makes room for `total` elements (at least), growing by half again each time. The room beyond
  /// ``count`` is uninitialised memory a caller may fill through ``base`` (plain values only).
  @inline(__always)
  package func reserve(_ total: Int) {
    guard total > capacity else { return }
    grow(to: max(total, capacity + capacity / 2, 1024))
  }

  private func grow(to newCapacity: Int) {
    let bytes = newCapacity * MemoryLayout<Element>.stride
    let raw = Memory.reallocate(UnsafeMutableRawPointer(base), bytes: bytes)
    base = raw.bindMemory(to: Element.self, capacity: newCapacity)
    capacity = newCapacity
  }

  /// Appends one element.
  @inline(__always)
  package func append(_ element: Element) {
    if count == capacity { reserve(count + 1) }
    let base = base.unsafelyUnwrapped
    (base + count).initialize(to: element)
    count += 1
  }

  /// Appends `n` copies of `element`.
  package func append(repeating element: Element, count n: Int) {
    guard n > 0 else { return }
    reserve(count + n)
    let base = base.unsafelyUnwrapped
    (base + count).initialize(repeating: element, count: n)
    count += n
  }

  /// Element `i`, for `i` in `0..<count` (unchecked beyond a debug assertion).
  ///
  /// An `assert`, not a `precondition`, on purpose: this is the per-record access of the ledger's and the
  /// importers' inner loops, where a check in release builds costs a compare and a branch per element
  /// and keeps loops from vectorising. Debug builds, and so every test run, check it.
  @inline(__always)
  package subscript(i: Int) -> Element {
    get {
      assert(i >= 0 && i < count, "GrowableBuffer: index \(i) outside 0..<\(count)")
      return base.unsafelyUnwrapped[i]
    }
    set {
      assert(i >= 0 && i < count, "GrowableBuffer: index \(i) outside 0..<\(count)")
      base.unsafelyUnwrapped[i] = newValue
    }
  }

  /// The elements as a buffer pointer (valid until the buffer grows or goes away).
  package var buffer: UnsafeMutableBufferPointer<Element> {
    UnsafeMutableBufferPointer(start: base, count: count)
  }

  /// Drops every element and frees the memory.
  package func removeAll() {
    Memory.free(base)
    base = nil
    count = 0
    capacity = 0
  }

  /// Frees capacity beyond the elements held.
  func shrinkToFit() {
    guard capacity > count, count > 0 else { return }
    grow(to: count)
  }
}
