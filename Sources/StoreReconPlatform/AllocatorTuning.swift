#if canImport(Glibc)
  import Glibc
#endif

/// Asks the C allocator to map big blocks (4 MiB and more) on their own and to give freed memory back,
/// instead of raising those limits as it goes: a run frees many large temporary arrays, and memory the
/// allocator keeps would otherwise count against the job's peak. Applied once per process.
package enum AllocatorTuning {
  /// Applies the settings (idempotent; a no-op where the C library has no `mallopt`).
  package static func apply() { _ = applied }

  private static let applied: Bool = {
    #if canImport(Glibc)
      typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallopt") else { return false }
      let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
      let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
      // 4 MiB: blocks below are recycled inside the heap (no page faults), blocks above go back to the
      // system when freed (no memory held after a phase's big arrays are gone).
      let threshold: Int32 = 4 << 20
      return mallopt(mmapThreshold, threshold) == 1 && mallopt(trimThreshold, threshold) == 1
    #else
      return false
    #endif
  }()
}
