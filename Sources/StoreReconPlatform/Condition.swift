#if canImport(Glibc)
  import Glibc
#endif

/// A lock with a condition that threads wait on until another changes what the lock guards: pthread's
/// mutex and condition variable, each in its own allocation (so that their addresses never move). Hold
/// the lock around ``wait()`` and ``broadcast()``; a wait may wake without a broadcast, so wait in a loop
/// on the state it waits for.
package final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  /// An unlocked lock.
  package init() {
    mutex.initialize(to: pthread_mutex_t())
    condition.initialize(to: pthread_cond_t())
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Takes the lock, waiting for it.
  package func lock() { pthread_mutex_lock(mutex) }

  /// Gives the lock back.
  package func unlock() { pthread_mutex_unlock(mutex) }

  /// Gives the lock back until another thread broadcasts (or the wait wakes by itself), then takes it
  /// again. Called with the lock held.
  package func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every thread waiting. Called with the lock held.
  package func broadcast() { pthread_cond_broadcast(condition) }
}
