import Glibc
import Synchronization
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconPlatform

/// A chunked read that stops taking chunks early (a quoted line break across chunk 0's end sends the
/// rest of the file to one thread) must not return while its workers still parse the file: the app-rows
/// fuzzer rewrote its one input path right after a read returned and a worker still in a chunk read a
/// mapped page past the new end (SIGBUS). Kept in Fuzz/corpus/approws/crash-4fc83a….
@Suite(.serialized)
struct ChunkDrainTests {
  /// What the workers did, for the test to look at.
  static let calls = Atomic<Int>(0)
  static let lateCalls = Atomic<Int>(0)
  static let returned = Atomic<Bool>(false)
  nonisolated(unsafe) static var consumer = pthread_self()

  /// Counts its records; slow on the workers (200 µs a record), so a worker is mid-chunk when the
  /// consumer gives up on the chunks; notes a record packed after the read returned.
  struct SlowPacker: CSVRecordPacker {
    static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> Int { header.names.count }
    init(columns: Int) {}
    func makeOutput() -> [Int] { [] }
    mutating func pack(_ record: CSVRecord, into output: inout [Int]) throws(RowRejection) {
      if ChunkDrainTests.returned.load(ordering: .sequentiallyConsistent) {
        ChunkDrainTests.lateCalls.add(1, ordering: .sequentiallyConsistent)
      }
      ChunkDrainTests.calls.add(1, ordering: .sequentiallyConsistent)
      if pthread_equal(pthread_self(), ChunkDrainTests.consumer) == 0 { usleep(200) }
      output.append(record.line)
    }
  }

  @Test func aReadReturnsOnlyOnceNoWorkerParsesItsFile() throws {
    let dir = try TempDir()
    let chunk = 8192
    var text = "id,name\n"
    var n = 0
    // Chunk 0 ends inside a quoted field with a line break: the consumer reads on alone from there.
    while text.utf8.count < chunk - 100 {
      n += 1
      text += "\(n),row number \(n) of the first chunk\n"
    }
    // The first line of that record runs from before chunk 0's end (header + 8,192 bytes) to after it.
    text += "quoted,\"a field that goes on" + String(repeating: " and on", count: 40) + "\nacross the end\"\n"
    while text.utf8.count < chunk * 12 {
      n += 1
      text += "\(n),row number \(n) after it\n"
    }
    let path = try dir.write("rows.csv", text)
    for trial in 0..<5 {
      Self.returned.store(false, ordering: .sequentiallyConsistent)
      Self.lateCalls.store(0, ordering: .sequentiallyConsistent)
      Self.calls.store(0, ordering: .sequentiallyConsistent)
      Self.consumer = pthread_self()
      var rows = 0
      let counts = try CSVChunkImport.run(
        SlowPacker.self, path: path, displayName: "rows.csv", rejects: RejectList(), chunkBytes: chunk,
        threads: 2
      ) { rows += $0.count }
      Self.returned.store(true, ordering: .sequentiallyConsistent)
      #expect(counts.accepted == n + 1 && rows == n + 1, "trial \(trial)")
      // The workers parsed chunks that the consumer then dropped (it read on alone after chunk 0).
      #expect(Self.calls.load(ordering: .sequentiallyConsistent) > n + 1, "trial \(trial)")
      // No worker packs a record once the read has returned.
      usleep(150_000)
      let late = Self.lateCalls.load(ordering: .sequentiallyConsistent)
      #expect(late == 0, "trial \(trial)")
    }
  }

  @Test func theGateWaitsForTheTasksInsideAndLetsNoneInAfter() {
    let gate = TaskGate()
    let done = Atomic<Bool>(false)
    #expect(gate.enter())
    let worker = BackgroundWork {
      usleep(50_000)
      done.store(true, ordering: .sequentiallyConsistent)
      gate.leave()
    }
    gate.closeAndWait()
    let finished = done.load(ordering: .sequentiallyConsistent)
    #expect(finished, "closeAndWait returned before the task left")
    #expect(!gate.enter() && gate.isClosed)
    worker.wait()
  }
}
