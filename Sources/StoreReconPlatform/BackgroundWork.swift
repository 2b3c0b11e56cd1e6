import Dispatch

/// One piece of work run on another thread while the caller goes on; ``wait()`` returns when it is
/// done (or throws its error). Dropping it without waiting still waits, so the work never outlives its
/// owner's scope (an error thrown by the caller meanwhile cannot leave it running).
package final class BackgroundWork<E: Error> {
  /// What the worker thread shares with the owner (the worker does not keep the owner alive).
  private final class State: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var failure: E?
    let body: () throws(E) -> Void

    init(body: @escaping () throws(E) -> Void) { self.body = body }

    func run() {
      do {
        try body()
      } catch {
        failure = error
      }
      done.signal()
    }
  }

  private let state: State
  private var waited = false

  /// Starts `body` on another thread (on one core, runs it right away).
  package init(_ body: @escaping () throws(E) -> Void) {
    let state = State(body: body)
    self.state = state
    if Parallel.cores > 1 {
      DispatchQueue.global(qos: .userInitiated).async { state.run() }
    } else {
      state.run()
    }
  }

  /// Waits for the work to finish; throws the error it threw.
  package func wait() throws(E) {
    if !waited {
      state.done.wait()
      waited = true
    }
    if let failure = state.failure { throw failure }
  }

  deinit {
    if !waited { state.done.wait() }
  }
}
