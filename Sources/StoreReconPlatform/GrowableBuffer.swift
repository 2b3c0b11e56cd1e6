/// A growable array of plain values in one `malloc` block, grown with `realloc`.
///
/// For big blocks the C library moves pages instead of copying them (`mremap`), so growing a buffer of
/// hundreds of megabytes neither copies it nor needs the old and the new block at once, as a Swift
/// `Array` does when it doubles. Growing traps when the memory is not there (``Memory``): a buffer never
/// quietly holds fewer elements than were appended.
///
/// Public and inlinable because every layer appends to and reads these buffers in its inner loops: the
/// toolchain inlines (and specialises) across targets only what is public and `@inlinable`.
public final class GrowableBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
  @usableFromInline var storage: UnsafeMutablePointer<Element>?
  @usableFromInline var held = 0
  @usableFromInline var capacity = 0

  /// The first element (or `nil` before anything was reserved); valid until the buffer grows or goes
  /// away.
  @inlinable public var base: UnsafeMutablePointer<Element>? { storage }
  /// Elements held.
  @inlinable public var count: Int { held }

  /// An empty buffer.
  public init() {}

  deinit { Memory.free(storage) }

  /// Makes room for `total` elements (at least), growing by half again each time. The room beyond
  /// ``count`` is uninitialised memory a caller may fill through ``base`` (plain values only).
  @inlinable @inline(__always)
  public func reserve(_ total: Int) {
    guard total > capacity else { return }
    grow(to: max(total, capacity + capacity / 2, 1024))
  }

  @usableFromInline
  func grow(to newCapacity: Int) {
    let bytes = newCapacity * MemoryLayout<Element>.stride
    let raw = Memory.reallocate(UnsafeMutableRawPointer(storage), bytes: bytes)
    storage = raw.bindMemory(to: Element.self, capacity: newCapacity)
    capacity = newCapacity
  }

  /// Appends one element.
  @inlinable @inline(__always)
  public func append(_ element: Element) {
    if held == capacity { reserve(held + 1) }
    (storage.unsafelyUnwrapped + held).initialize(to: element)
    held += 1
  }

  /// Appends `n` copies of `element`.
  @inlinable
  public func append(repeating element: Element, count n: Int) {
    guard n > 0 else { return }
    reserve(held + n)
    (storage.unsafelyUnwrapped + held).initialize(repeating: element, count: n)
    held += n
  }

  /// Element `i`, for `i` in `0..<count` (unchecked beyond a debug assertion).
  ///
  /// An `assert`, not a `precondition`, on purpose: this is the per-record access of the ledger's and the
  /// importers' inner loops, where a check in release builds costs a compare and a branch per element
  /// and keeps loops from vectorising. Debug builds, and so every test run, check it.
  @inlinable @inline(__always)
  public subscript(i: Int) -> Element {
    get {
      assert(i >= 0 && i < held, "GrowableBuffer: index \(i) outside 0..<\(held)")
      return storage.unsafelyUnwrapped[i]
    }
    set {
      assert(i >= 0 && i < held, "GrowableBuffer: index \(i) outside 0..<\(held)")
      storage.unsafelyUnwrapped[i] = newValue
    }
  }

  /// The elements as a buffer pointer (valid until the buffer grows or goes away).
  @inlinable
  public var buffer: UnsafeMutableBufferPointer<Element> {
    UnsafeMutableBufferPointer(start: storage, count: held)
  }

  /// Drops every element and frees the memory.
  public func removeAll() {
    Memory.free(storage)
    storage = nil
    held = 0
    capacity = 0
  }

  /// Frees capacity beyond the elements held.
  public func shrinkToFit() {
    guard capacity > held, held > 0 else { return }
    grow(to: held)
  }
}
