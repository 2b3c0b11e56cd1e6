#if canImport(Glibc)
  import Glibc
#endif

/// The process's peak resident set so far (`getrusage`'s `ru_maxrss`): what a partitioned run reports
/// per partition.
package enum PeakMemory {
  /// Peak resident bytes of this process; 0 where the system does not say.
  package static func residentBytes() -> Int64 {
    #if canImport(Glibc)
      var usage = rusage()
      guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
      return Int64(usage.ru_maxrss) * 1024  // Linux reports kilobytes
    #else
      return 0
    #endif
  }
}
