import Foundation
import StoreReconPlatform

/// The clock a fetch waits on (backoff, the request rate) and reads (token lifetimes): the system's in a
/// fetch, a recording one in tests so that no test waits or depends on timing.
package protocol FetchClock: AnyObject {
  /// Seconds since 1970-01-01 UTC.
  func now() -> Double
  /// Waits `seconds`.
  func sleep(_ seconds: Double)
}

/// The system clock.
package final class SystemClock: FetchClock {
  /// Creates the system clock.
  package init() {}
  package func now() -> Double { Date().timeIntervalSince1970 }
  package func sleep(_ seconds: Double) { Pause.sleep(seconds) }
}

/// A clock that never waits: `sleep` adds to the time and records the wait (tests).
package final class RecordingClock: FetchClock {
  /// The current time, seconds since 1970.
  package var time: Double
  /// Every wait asked for, in order.
  package private(set) var sleeps: [Double] = []
  /// A clock starting at `time`.
  package init(time: Double = 1_764_547_200) { self.time = time }
  package func now() -> Double { time }
  package func sleep(_ seconds: Double) {
    sleeps.append(seconds)
    time += max(0, seconds)
  }
}
