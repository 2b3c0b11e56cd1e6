#if canImport(Glibc)
  import Glibc
#endif

/// A plain file mapped read-only into memory, so that big inputs are parsed and checksummed where the
/// page cache holds them instead of being copied into buffers first.
///
/// Callers map a stretch's pages with ``load(_:_:)`` before touching it (one call instead of a fault per
/// page; it fails, instead of the process getting `SIGBUS`, when the file has shrunk since it was
/// opened — the caller then reads the stretch with `pread` instead) and drop them with
/// ``release(_:_:)`` once done (the pages stay in the page cache, but no longer count as the process's
/// memory).
package final class MappedFile: @unchecked Sendable {
  /// The first byte of the file.
  package let base: UnsafePointer<UInt8>
  /// The bytes mapped (the file's size when it was mapped).
  package let size: Int

  private static let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
  /// `MADV_POPULATE_READ` (Linux 5.14).
  private static let populateRead: Int32 = 22

  /// Maps `size` bytes of the open file `fd`; `nil` when the file is empty or cannot be mapped.
  package init?(fd: Int32, size: Int64) {
    guard size > 0, size < Int64(Int.max / 2) else { return nil }
    guard let address = mmap(nil, Int(size), PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else {
      return nil
    }
    base = UnsafePointer(address.assumingMemoryBound(to: UInt8.self))
    self.size = Int(size)
    _ = madvise(address, Int(size), MADV_SEQUENTIAL)
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

  /// Maps the pages of bytes `[offset, offset + count)` (clamped to the mapping); `false` when they
  /// cannot be read (the file shrank) or the kernel cannot map them ahead.
  ///
  /// It first asks the kernel to read this stretch and the ``readAhead`` bytes after it in the
  /// background (`MADV_WILLNEED`), so that a file not in the page cache streams from the disk while the
  /// stretch before is parsed, instead of each stretch waiting for its own pages.
  package func load(_ offset: Int, _ count: Int) -> Bool {
    let (from, length) = pages(offset, count, inner: false)
    guard length > 0 else { return true }
    let (ahead, aheadLength) = pages(from, length + MappedFile.readAhead, inner: false)
    _ = madvise(UnsafeMutableRawPointer(mutating: base + ahead), aheadLength, MappedFile.willNeed)
    return madvise(UnsafeMutableRawPointer(mutating: base + from), length, MappedFile.populateRead) == 0
  }

  /// How far past a loaded stretch the kernel is asked to read ahead: sixteen 8 MiB chunks.
  package static let readAhead = 128 << 20
  /// `MADV_WILLNEED`.
  private static let willNeed: Int32 = 3

  /// Drops the whole pages inside bytes `[offset, offset + count)` from the process's memory.
  package func release(_ offset: Int, _ count: Int) {
    let (from, length) = pages(offset, count, inner: true)
    guard length > 0 else { return }
    _ = madvise(UnsafeMutableRawPointer(mutating: base + from), length, MADV_DONTNEED)
  }

  /// The page-aligned stretch covering (or, `inner`, inside) `[offset, offset + count)`.
  private func pages(_ offset: Int, _ count: Int, inner: Bool) -> (Int, Int) {
    let start = max(0, offset)
    let end = min(size, offset + count)
    guard end > start else { return (0, 0) }
    let page = MappedFile.page
    var from = start / page * page
    var to = (end + page - 1) / page * page
    if inner {
      from = (start + page - 1) / page * page
      to = end == size ? to : end / page * page
    }
    return to > from ? (from, to - from) : (0, 0)
  }
}
