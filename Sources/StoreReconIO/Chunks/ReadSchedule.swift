import StoreReconPlatform

/// The read-ahead of a run's chunked inputs: the chunks of every input added are queued to one
/// ``ReadPool`` in input order, a few at a time, so that the workers parse the next chunks — of this
/// file or the next ones — while the caller merges the chunks before them, in order.
///
/// Only the calling thread uses a schedule (adds, opens, consumes); the pool's workers only run the
/// tasks. Each added ``ScheduledRead`` must be consumed (or cancelled) in the order added.
package final class ReadSchedule {
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
  package init(workers: Int = Parallel.cores, limit: Int? = nil) {
    pool = ReadPool(workers: workers)
    self.limit = max(1, limit ?? 4 * pool.workers + 1)
  }

  deinit { pool.close() }

  /// Adds `read` after the reads added before: its tasks are queued after theirs.
  package func add(_ read: ScheduledRead) {
    precondition(read.schedule == nil, "ReadSchedule.add: a read joins one schedule, once")
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
  package func finish() {
    pool.close()
    reads = []
    cursor = 0
  }

  /// A task was taken (or dropped) by the consumer: `n` fewer out.
  func release(_ n: Int) {
    precondition(
      n >= 0 && n <= inFlight, "ReadSchedule.release: only tasks queued and not yet taken are released")
    inFlight -= n
    topUp()
  }
}
