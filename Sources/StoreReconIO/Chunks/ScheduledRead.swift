import StoreReconPlatform

/// One input read in chunks through a ``ReadSchedule``: opened on the calling thread when the schedule
/// reaches it (``open()`` sets ``taskCount``), then its tasks are queued one by one (``submit(_:to:)``).
/// Subclasses keep the tickets and consume them in order.
package class ScheduledRead: @unchecked Sendable {
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
  /// Lets the tasks in until the consumer is done; ``cancelRest()`` closes it and waits for the
  /// tasks inside, so no task reads the file after the read returns.
  let gate = TaskGate()

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
  package final func fileChecksum() -> (bytes: Int64, sha256: String)? {
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
    checksumWork = BackgroundWork { box.value = FileByteSource.digest(path: path) }
  }

  /// Queues task `k` to `pool`.
  func submit(_ k: Int, to pool: ReadPool) {}

  /// Whether the consumer has given up on this read's remaining tasks.
  var isCancelled: Bool { gate.isClosed }

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
    precondition(
      k == taken, "ScheduledRead: chunks are merged in file order (chunk \(k) asked, \(taken) next)")
    if k >= submitted { schedule?.topUp() }
    // Unqueued here, the chunk would read as empty: its records silently lost.
    precondition(
      k >= taskCount || k < submitted,
      "ReadSchedule: reads are consumed in the order added (chunk \(k) is not queued: a read added before "
        + "this one was neither consumed nor cancelled, or the schedule is gone)")
  }

  /// Notes that the consumer took the next task.
  final func tookOne() {
    precondition(taken < submitted, "ScheduledRead: a chunk is taken only once it is queued")
    taken += 1
    schedule?.release(1)
    ReadProgress.advance(taken, of: taskCount)
  }

  /// Gives up on the tasks not yet taken: queued ones are skipped, the rest never queued, and the ones
  /// working are waited for (tasks do their work only inside ``gate``).
  final func cancelRest() {
    gate.closeAndWait()
    taskCount = submitted
    let out = submitted - taken
    taken = submitted
    schedule?.release(out)
    ownSchedule = nil  // (it holds this read: no cycle once done)
  }
}
