/// The read-ahead of a run's chunked inputs: the chunks of every input added are queued to one
/// ``ReadPool`` in input order, a few at a time, so that the workers parse the next chunks — of this
/// file or the next ones — while the caller merges the chunks before them, in order.
///
/// Only the calling thread uses a schedule (adds, opens, consumes); the pool's workers only run the
/// tasks. Each added ``ScheduledRead`` must be consumed (or cancelled) in the order added.
final class ReadSchedule {
  /// The worker threads.
  let pool: ReadPool
  /// Tasks queued and not yet taken, at most.
  let limit: Int
  private var reads: [ScheduledRead] = []
  /// The first read whose tasks are not all queued.
  private var cursor = 0
  private var inFlight = 0

  /// A schedule with `workers` threads and at most `limit` (default: four times the workers, plus one)
  /// chunks parsed ahead of the merge.
  init(workers: Int = Parallel.cores, limit: Int? = nil) {
    pool = ReadPool(workers: workers)
    self.limit = max(1, limit ?? 4 * pool.workers + 1)
  }

  deinit { pool.close() }

  /// Adds `read` after the reads added before: its tasks are queued after theirs.
  func add(_ read: ScheduledRead) {
    read.schedule = self
    reads.append(read)
  }

  /// Queues tasks in order (opening reads as the queue reaches them) while fewer than ``limit`` are out.
  func topUp() {
    while inFlight < limit && cursor < reads.count {
      let read = reads[cursor]
      read.openOnce()
      if read.submitted < read.taskCount {
        read.submitNext(to: pool)
        inFlight += 1
      } else {
        cursor += 1
      }
    }
  }

  /// Ends the workers and lets go of the reads (their files and mappings).
  func finish() {
    pool.close()
    reads = []
    cursor = 0
  }

  /// A task was taken (or dropped) by the consumer: `n` fewer out.
  func release(_ n: Int) {
    inFlight -= n
    topUp()
  }
}

/// One input read in chunks through a ``ReadSchedule``: opened on the calling thread when the schedule
/// reaches it (``open()`` sets ``taskCount``), then its tasks are queued one by one (``submit(_:to:)``).
/// Subclasses keep the tickets and consume them in order.
class ScheduledRead: @unchecked Sendable {
  private(set) var isOpen = false
  /// Tasks of this read (known once open).
  var taskCount = 0
  /// Tasks queued so far.
  private(set) var submitted = 0
  /// Tasks taken by the consumer so far.
  private(set) var taken = 0
  weak var schedule: ReadSchedule?
  /// The schedule of a read consumed without one (made by ``begin()``).
  private var ownSchedule: ReadSchedule?
  private let flag = FileDigest.NSLockLike()
  private var cancelledFlag = false

  /// Whether the read also checksums its file (for the run's manifest).
  let checksums: Bool
  private final class Checksum: @unchecked Sendable {
    var value: (bytes: Int64, sha256: String)?
  }
  private let checksum = Checksum()
  private var checksumWork: BackgroundWork<Never>?

  init(checksums: Bool = false) { self.checksums = checksums }

  /// Opens the input and sets ``taskCount`` (called once, on the calling thread).
  func open() {}

  /// The file's size and SHA-256 as stored, once consumed (with ``checksums``); `nil` when it cannot be
  /// read.
  final func fileChecksum() -> (bytes: Int64, sha256: String)? {
    if let work = checksumWork {
      work.wait()
      checksumWork = nil
    }
    return checksum.value
  }

  /// Notes the checksum the read computed.
  final func setChecksum(_ value: (bytes: Int64, sha256: String)?) { checksum.value = value }

  /// Checksums `path` on another thread, by reading it (for a file not read in mapped chunks).
  final func checksumInBackground(_ path: String) {
    guard checksums, checksumWork == nil else { return }
    let box = checksum
    checksumWork = BackgroundWork {
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
      defer { buffer.deallocate() }
      box.value = FileDigest.of(path: path, buffer: buffer)
    }
  }

  /// Queues task `k` to `pool`.
  func submit(_ k: Int, to pool: ReadPool) {}

  /// Whether the consumer has given up on this read's remaining tasks (tasks check it before working).
  var isCancelled: Bool { flag.locked { cancelledFlag } }

  final func openOnce() {
    guard !isOpen else { return }
    isOpen = true
    open()
  }

  final func submitNext(to pool: ReadPool) {
    submit(submitted, to: pool)
    submitted += 1
  }

  /// Opens the read and queues its first tasks, if the schedule has not yet (a read consumed without a
  /// schedule gets one of its own, with one worker).
  final func begin() {
    if schedule == nil {
      let own = ReadSchedule(workers: 1)
      own.add(self)
      ownSchedule = own
    }
    schedule?.topUp()
    openOnce()
  }

  /// Makes sure task `k` (the next to take) is queued.
  final func ensureSubmitted(_ k: Int) {
    if k >= submitted { schedule?.topUp() }
  }

  /// Notes that the consumer took the next task.
  final func tookOne() {
    taken += 1
    schedule?.release(1)
  }

  /// Gives up on the tasks not yet taken: queued ones are skipped, the rest never queued.
  final func cancelRest() {
    flag.locked { cancelledFlag = true }
    taskCount = submitted
    let out = submitted - taken
    taken = submitted
    schedule?.release(out)
  }
}
