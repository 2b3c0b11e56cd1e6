#if canImport(Glibc)
  import Glibc
#endif

/// Hands the C allocator's free memory back to the system (`malloc_trim`) after the read phase, whose
/// worker threads allocated and freed a batch of records per chunk in their own arenas: memory the
/// allocator would otherwise keep resident (counted against the job's peak).
package enum FreeMemory {
  /// Releases what can be released (a no-op where the C library has no `malloc_trim`).
  package static func release() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }
}
