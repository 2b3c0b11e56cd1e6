import Dispatch

/// The result of a task submitted to a ``ReadPool``, once a worker has run it.
package final class ReadTicket<T>: @unchecked Sendable {
  private var value: T?
  private let ready = DispatchSemaphore(value: 0)

  init() {}

  func fulfil(_ result: T) {
    value = result
    ready.signal()
  }

  /// Waits for the task to run and hands over its result (take it once; wait only for tickets of a
  /// pool not closed).
  package func take() -> T? {
    ready.wait()
    defer { value = nil }
    return value
  }
}
