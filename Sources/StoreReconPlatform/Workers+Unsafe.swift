// Safety: each thread is handed one retained `Crew` (Unmanaged.passRetained) and releases it exactly once
// (takeRetainedValue) before it ends; every thread is joined before `run` returns, so the body, which
// `withoutActuallyEscaping` lends to the crew, is never called after `run` returns; a slot is written by
// the one thread that took its index, under the crew's lock, and read only after the joins.

#if canImport(Glibc)
  import Glibc
#endif

/// Runs blocking work — HTTP requests that wait on the network, not on a core — on a fixed number of
/// threads of its own, however many cores there are (``Parallel`` cuts work per core and would keep only
/// two requests in flight on a two-core machine). Items are handed out in index order; results come back
/// in index order, so a caller that merges them in that order gets the same result as a loop.
package enum Workers {
  /// Runs `body` for the indices `0..<count` on up to `threads` threads (on the calling thread when there
  /// is one, or one item) and returns what each gave, in index order. After a body returns a failure, no
  /// index not yet started is started: the slots of those are `nil` (the ones already running finish).
  package static func run<T, E: Error>(
    count: Int, threads: Int, _ body: (Int) -> Result<T, E>
  ) -> [Result<T, E>?] {
    var results = [Result<T, E>?](repeating: nil, count: count)
    let width = min(max(1, threads), count)
    if width <= 1 {
      for index in 0..<count {
        let result = body(index)
        results[index] = result
        if case .failure = result { break }
      }
      return results
    }
    return withoutActuallyEscaping(body) { body in
      let crew = Crew(count: count, body: body)
      var started: [pthread_t] = []
      for _ in 0..<width {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(crew).toOpaque()
        if pthread_create(&thread, nil, workerEntry, context) == 0 {
          started.append(thread)
        } else {
          Unmanaged<Crew<T, E>>.fromOpaque(context).release()
        }
      }
      // No thread could start (out of threads): the calling thread does the work itself.
      if started.isEmpty { crew.work() }
      for thread in started { pthread_join(thread, nil) }
      return crew.slots
    }
  }

  /// What the threads share: the next index, the results, and whether a failure stopped the hand-out.
  private final class Crew<T, E: Error>: WorkerCrew, @unchecked Sendable {
    let count: Int
    let body: (Int) -> Result<T, E>
    var slots: [Result<T, E>?]
    private var next = 0
    private var stopped = false
    private let lock = Lock()

    init(count: Int, body: @escaping (Int) -> Result<T, E>) {
      self.count = count
      self.body = body
      slots = Array(repeating: nil, count: count)
    }

    /// Takes indices until none is left or a failure stopped the hand-out.
    func work() {
      while true {
        let index: Int? = lock.locked {
          guard !stopped, next < count else { return nil }
          next += 1
          return next - 1
        }
        guard let index else { return }
        let result = body(index)
        lock.locked {
          slots[index] = result
          if case .failure = result { stopped = true }
        }
      }
    }
  }
}

/// A crew as its threads see it, whatever its result types.
private protocol WorkerCrew: AnyObject {
  func work()
}

/// A worker thread's start: takes its retained crew, works, and releases it.
private func workerEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  let crew = Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue()
  (crew as? any WorkerCrew)?.work()
  return nil
}
