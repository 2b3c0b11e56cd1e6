import Synchronization

/// A lock around state that several threads share: the standard library's `Mutex` in a class, so that
/// it can be a stored property of the (`@unchecked Sendable`) objects that hold such state.
package final class Lock: @unchecked Sendable {
  private let mutex = Mutex<Void>(())

  /// An unlocked lock.
  package init() {}

  /// `body`'s result, computed while holding the lock.
  package func locked<T>(_ body: () -> T) -> T {
    withoutActuallyEscaping(body) { body in
      let box = UncheckedBox(body)
      return mutex.withLock { _ in UncheckedBox(box.value()) }.value
    }
  }
}

/// Carries a value across `Mutex.withLock`'s `sending` boundary; the lock is what makes that safe.
private struct UncheckedBox<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
