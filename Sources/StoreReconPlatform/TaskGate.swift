#if canImport(Glibc)
  import Glibc
#endif

/// Lets worker tasks in until it is closed, and lets the closer wait for the ones already in: after
/// ``closeAndWait()`` returns, no task of the gate is running or will start its work.
///
/// A chunked read closes its gate before it returns, so that no chunk still parses its file afterwards
/// (the caller may rewrite or remove the file at once: a mapped page read after the file shrank is a
/// SIGBUS; found by the app-rows fuzzer, whose inputs reuse one path).
package final class TaskGate: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var running = 0
  private var closed = false

  /// An open gate.
  package init() {
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
  }

  deinit {
    pthread_cond_destroy(&condition)
    pthread_mutex_destroy(&mutex)
  }

  /// `true` when the task may do its work (then it must call ``leave()``); `false` once closed.
  package func enter() -> Bool {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if closed { return false }
    running += 1
    return true
  }

  /// A task that entered is done.
  package func leave() {
    pthread_mutex_lock(&mutex)
    precondition(running > 0, "TaskGate.leave without enter")
    running -= 1
    if running == 0 { pthread_cond_broadcast(&condition) }
    pthread_mutex_unlock(&mutex)
  }

  /// Whether the gate is closed.
  package var isClosed: Bool {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return closed
  }

  /// Closes the gate and waits until every task that entered has left.
  package func closeAndWait() {
    pthread_mutex_lock(&mutex)
    closed = true
    while running > 0 { pthread_cond_wait(&condition, &mutex) }
    pthread_mutex_unlock(&mutex)
  }
}
