#if canImport(Glibc)
  import Glibc
#endif

/// The C allocator around the read phase: while the read's worker threads allocate and free a batch of
/// records per chunk, freed memory is kept for the next chunk (``hold()``) instead of going back to the
/// system and being faulted in again page by page; afterwards everything free is handed back
/// (``release()``), so it does not count against the job's peak.
enum FreeMemory {
  /// Keeps up to 256 MiB of freed memory at the top of each heap (undone by ``release()``).
  static func hold() {
    AllocatorTuning.apply()
    _ = mallopt(trimThreshold, 256 << 20)
  }

  /// Restores ``AllocatorTuning``'s limit and releases what can be released (`malloc_trim`).
  static func release() {
    _ = mallopt(trimThreshold, 4 << 20)
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }

  /// `M_TRIM_THRESHOLD`.
  private static let trimThreshold: Int32 = -1

  private static func mallopt(_ option: Int32, _ value: Int32) -> Int32 {
    #if canImport(Glibc)
      typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallopt") else { return 0 }
      return unsafeBitCast(symbol, to: MallOpt.self)(option, value)
    #else
      return 0
    #endif
  }
}
