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

/// A clock that never waits: `sleep` adds to the time and records the wait (tests). Safe to share
/// between threads.
package final class RecordingClock: FetchClock, @unchecked Sendable {
  private let lock = Lock()
  private var current: Double
  private var waits: [Double] = []
  /// A clock starting at `time`.
  package init(time: Double = 1_764_547_200) { current = time }
  /// The current time, seconds since 1970.
  package var time: Double {
    get { lock.locked { current } }
    set { lock.locked { current = newValue } }
  }
  /// Every wait asked for, in order.
  package var sleeps: [Double] { lock.locked { waits } }
  package func now() -> Double { time }
  package func sleep(_ seconds: Double) {
    lock.locked {
      waits.append(seconds)
      current += max(0, seconds)
    }
  }
}
