// Safety: callers pass ranges they own for the count given (memchr, memcmp, memmove); allocations check their
// size and alignment (precondition, debug and release) and trap when memory is not there, so no caller sees a
// null block.

public import Glibc

/// Raw-memory primitives of the C library for the fenced files that scan or copy bytes, and
/// allocations that trap when the memory is not there: out of memory must stop a run, never let it go
/// on with fewer rows (and so fewer findings) than it read.
public enum Memory {
  /// The first `byte` in `count` bytes at `base`, or `nil` (`memchr`).
  @inlinable
  public static func memchr(_ base: UnsafeRawPointer, _ byte: Int32, _ count: Int)
    -> UnsafeMutableRawPointer?
  {
    Glibc.memchr(base, byte, count)
  }

  /// Compares `count` bytes (`memcmp`): 0 when equal.
  @inlinable
  public static func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
    Glibc.memcmp(a, b, count)
  }

  /// Copies `count` bytes between possibly overlapping ranges (`memmove`).
  @inlinable
  public static func memmove(
    _ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, _ count: Int
  ) {
    _ = Glibc.memmove(destination, source, count)
  }

  /// `bytes` (more than 0) aligned to `alignment` (a power of two, at least the pointer size); traps
  /// when the memory cannot be had.
  package static func allocate(bytes: Int, alignment: Int) -> UnsafeMutableRawPointer {
    precondition(bytes > 0, "Memory.allocate: no bytes asked for")
    precondition(
      alignment >= MemoryLayout<UnsafeRawPointer>.size && alignment & (alignment - 1) == 0,
      "Memory.allocate: alignment \(alignment) is not a power of two of at least the pointer size")
    var raw: UnsafeMutableRawPointer?
    guard posix_memalign(&raw, alignment, bytes) == 0, let raw else { outOfMemory(bytes) }
    return raw
  }

  /// Grows or shrinks a block from ``reallocate(_:bytes:)`` (or `nil`) to `bytes` (more than 0); traps
  /// when the memory cannot be had (the old block is then still intact, but the run stops).
  package static func reallocate(_ block: UnsafeMutableRawPointer?, bytes: Int) -> UnsafeMutableRawPointer {
    precondition(bytes > 0, "Memory.reallocate: no bytes asked for")
    guard let raw = realloc(block, bytes) else { outOfMemory(bytes) }
    return raw
  }

  /// Frees a block from ``allocate(bytes:alignment:)`` or ``reallocate(_:bytes:)`` (`nil` is a no-op).
  package static func free(_ block: UnsafeMutableRawPointer?) { Glibc.free(block) }

  /// Says so on stderr and stops the process.
  private static func outOfMemory(_ bytes: Int) -> Never {
    preconditionFailure("storerecon: out of memory: could not allocate \(bytes) bytes")
  }
}
