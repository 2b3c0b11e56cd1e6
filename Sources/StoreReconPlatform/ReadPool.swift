import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Worker threads that run submitted tasks in submission order, each handing its task one byte buffer
/// of its own that it keeps (and reuses) from task to task.
///
/// The threads are the pool's own (not the dispatch pool's), so a task may block and other parallel
/// work of the process still finds threads. Dropping the pool (or ``close()``) ends the threads once
/// their current task is done; tasks not started by then are dropped (their tickets never fill).
package final class ReadPool: @unchecked Sendable {
  private final class State: @unchecked Sendable {
    var tasks: [((GrowableBuffer<UInt8>) -> Void)?] = []
    var head = 0
    var closed = false
    var mutex = pthread_mutex_t()
    var condition = pthread_cond_t()

    init() {
      pthread_mutex_init(&mutex, nil)
      pthread_cond_init(&condition, nil)
    }

    deinit {
      pthread_cond_destroy(&condition)
      pthread_mutex_destroy(&mutex)
    }

    func push(_ task: @escaping (GrowableBuffer<UInt8>) -> Void) {
      pthread_mutex_lock(&mutex)
      tasks.append(task)
      pthread_cond_signal(&condition)
      pthread_mutex_unlock(&mutex)
    }

    /// The next task, waiting for one; `nil` once the pool is closed.
    func pop() -> ((GrowableBuffer<UInt8>) -> Void)? {
      pthread_mutex_lock(&mutex)
      defer { pthread_mutex_unlock(&mutex) }
      while head == tasks.count && !closed { pthread_cond_wait(&condition, &mutex) }
      if closed { return nil }
      let task = tasks[head]
      tasks[head] = nil  // what the task holds goes when it is done
      head += 1
      if head == tasks.count {
        tasks.removeAll(keepingCapacity: true)
        head = 0
      }
      return task
    }

    func close() {
      pthread_mutex_lock(&mutex)
      closed = true
      tasks.removeAll()
      head = 0
      pthread_cond_broadcast(&condition)
      pthread_mutex_unlock(&mutex)
    }

    func work() {
      let buffer = GrowableBuffer<UInt8>()
      while let task = pop() { task(buffer) }
    }
  }

  private let state = State()
  /// The number of worker threads.
  package let workers: Int

  /// Starts `workers` threads (at least one).
  package init(workers: Int) {
    self.workers = max(1, workers)
    for _ in 0..<self.workers {
      let state = self.state
      Self.startThread(stackBytes: 8 << 20) { state.work() }
    }
  }

  deinit { state.close() }

  /// Queues `body`; a worker runs it with its buffer, after every task submitted before it has started.
  package func submit<T>(_ body: @escaping (GrowableBuffer<UInt8>) -> T) -> ReadTicket<T> {
    let ticket = ReadTicket<T>()
    state.push { buffer in ticket.fulfil(body(buffer)) }
    return ticket
  }

  /// Ends the threads after their current task; drops the tasks not started.
  package func close() { state.close() }

  /// Starts a detached POSIX thread with a stack of `stackBytes` running `body`; traps when the system
  /// cannot start one (the run could not read its inputs otherwise).
  private static func startThread(stackBytes: Int, _ body: @escaping () -> Void) {
    final class Start {
      let body: () -> Void
      init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackBytes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, &attributes,
      { raw in
        guard let raw else { return nil }
        let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
        start.body()
        return nil
      }, context)
    precondition(status == 0, "storerecon: cannot start a reader thread (pthread_create: \(status))")
  }
}
