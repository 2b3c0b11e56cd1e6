#if canImport(Glibc)
  import Glibc
#endif

/// Waits on the calling thread: the fetch's backoff and request rate (the only waits the project makes).
package enum Pause {
  /// Sleeps `seconds` (nothing for zero or less), taken up again when a signal interrupts it.
  package static func sleep(_ seconds: Double) {
    guard seconds > 0 else { return }
    let whole = seconds.rounded(.down)
    var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}
