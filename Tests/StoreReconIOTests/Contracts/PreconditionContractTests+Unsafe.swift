import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconIO

extension Contracts {
  /// Each documented contract that has a `precondition` traps when broken (an exit test: the body runs
  /// in a child process, which must fail), and keeps its answers when kept.
  @Suite struct PreconditionContractTests {
    /// A read of `tasks` chunks that queues nothing real (the schedule's bookkeeping alone).
    final class CountingRead: ScheduledRead, @unchecked Sendable {
      let tasks: Int
      init(tasks: Int) {
        self.tasks = tasks
        super.init()
      }
      override func open() { taskCount = tasks }
      override func submit(_ k: Int, to pool: ReadPool) {}

      /// Takes every chunk in order, as the importers' merges do.
      func consume() {
        begin()
        for k in 0..<taskCount {
          ensureSubmitted(k)
          tookOne()
        }
        cancelRest()
      }
    }

    /// What the failed child process printed on stderr (a precondition's message names its contract).
    static func stderr(_ result: ExitTest.Result?) -> String {
      String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func readsConsumedInTheOrderAddedKeepTheSchedule() {
      let schedule = ReadSchedule(workers: 1, limit: 2)
      let reads = [CountingRead(tasks: 5), CountingRead(tasks: 0), CountingRead(tasks: 3)]
      for read in reads { schedule.add(read) }
      for read in reads { read.consume() }
      #expect(reads.map(\.taken) == [5, 0, 3])
      schedule.finish()
    }

    @Test func aReadConsumedBeforeAnEarlierOneTraps() async {
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let schedule = ReadSchedule(workers: 1, limit: 2)
        let first = CountingRead(tasks: 4)
        let second = CountingRead(tasks: 4)
        schedule.add(first)
        schedule.add(second)
        second.consume()  // the first's chunks fill the read-ahead: the second's never queue
      }
      #expect(Self.stderr(broken).contains("ReadSchedule: reads are consumed in the order added"))
    }

    @Test func aReadJoinsOneScheduleOnce() async {
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let schedule = ReadSchedule(workers: 1)
        let read = CountingRead(tasks: 1)
        schedule.add(read)
        schedule.add(read)
      }
      #expect(Self.stderr(broken).contains("ReadSchedule.add: a read joins one schedule, once"))
    }

    @Test func chunksAreTakenInFileOrder() async {
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let read = CountingRead(tasks: 3)
        read.begin()
        read.ensureSubmitted(1)  // chunk 0 is next
      }
      #expect(Self.stderr(broken).contains("ScheduledRead: chunks are merged in file order"))
      let broken2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        ScheduledRead().tookOne()  // nothing queued
      }
      #expect(Self.stderr(broken2).contains("ScheduledRead: a chunk is taken only once it is queued"))
    }

    @Test func hashedStretchesTileTheFile() async throws {
      let dir = try TempDir()
      let path = try dir.write("f.bin", bytes: Array(repeating: 7, count: 100))
      let file = try FileByteSource(path: path, displayName: "f.bin")
      file.mapWhole()
      let hasher = ChunkHasher(map: try #require(file.mapping))
      hasher.offer(40, 100)
      hasher.offer(0, 40)
      #expect(hasher.finish(file)?.sha256 == FileDigest.of(path: path)?.sha256)
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let dir = try TempDir()
        let path = try dir.write("f.bin", bytes: Array(repeating: 7, count: 100))
        let file = try FileByteSource(path: path, displayName: "f.bin")
        file.mapWhole()
        guard let map = file.mapping else { return }
        let hasher = ChunkHasher(map: map)
        hasher.offer(0, 60)
        hasher.offer(50, 100)  // overlaps what is hashed
      }
      #expect(Self.stderr(broken).contains("ChunkHasher.offer: stretches tile the file"))
    }

    @Test func aByteSourceIsGivenAtLeastEightBytes() async throws {
      let dir = try TempDir()
      let path = try dir.write("a.txt", "abcdefgh\n")
      let source = try InputBytes.open(path: path, displayName: "a.txt")
      var buffer = [UInt8](repeating: 0, count: 8)
      #expect(try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) } == 8)
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let dir = try TempDir()
        let path = try dir.write("a.txt", "abcdefgh\n")
        let source = try InputBytes.open(path: path, displayName: "a.txt")
        var small = [UInt8](repeating: 0, count: 4)
        _ = try small.withUnsafeMutableBufferPointer { try source.read(into: $0) }
      }
      #expect(Self.stderr(broken).contains("ByteSource.read(into:): the buffer holds at least 8 bytes"))
    }

    @Test func moneyScalesAreWithinThePowersOfTen() async throws {
      let usd = try #require(Currency.named("USD"))
      #expect(try usd.minor(scaled: 4_990, scale: 3) == (try usd.minor(milliunits: 4_990)))
      #expect(try usd.minor(scaled: 4_990_000, scale: 6) == (try usd.minor(micros: 4_990_000)))
      #expect(try usd.minor(scaled: 5, scale: 0) == 500)
      #expect(try usd.minor(scaled: 5 * Pow10.int64(16), scale: 18) == 5)
      #expect(Currency.render(-50, scale: 2) == "-0.50" && Currency.render(7, scale: 0) == "7")
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = try Currency.named("USD")?.minor(scaled: 1, scale: 19)
      }
      #expect(Self.stderr(broken).contains("Currency.minor(scaled:scale:): the scale is 0 to 18"))
      let broken2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = try Currency.named("USD")?.minor(scaled: 1, scale: -1)
      }
      #expect(Self.stderr(broken2).contains("Currency.minor(scaled:scale:): the scale is 0 to 18"))
      let broken3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Currency.render(1, scale: -1)
      }
      #expect(Self.stderr(broken3).contains("Currency.render(_:scale:): the scale is not negative"))
    }

    @Test func roundingOfVeryLargeProductsFitsAnInt64() async {
      #expect(
        RoundingRule.halfEven.scale(Int64.max, numerator: 3, denominator: 4) == 6_917_529_027_641_081_855)
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = RoundingRule.halfEven.scale(Int64.max, numerator: 3, denominator: -4)
      }
      #expect(Self.stderr(broken).contains("RoundingRule.scale: the denominator is positive"))
      let broken2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = RoundingRule.down.scale(Int64.max, numerator: 4, denominator: 2)
      }
      #expect(
        Self.stderr(broken2).contains("RoundingRule.scale: amount × numerator / denominator fits an Int64"))
    }

    @Test func aReleasedLedgerIsNotReadAgain() async throws {
      let ledger = LedgerBuilder().build(asOf: Instant(ms: 0), catalog: Catalog())
      #expect(
        ledger.chains.isEmpty && ledger.chainIndex(store: .play, key: "GPA.1234-5678-9012-34567") == nil)
      let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let ledger = LedgerBuilder().build(asOf: Instant(ms: 0), catalog: Catalog())
        ledger.release()
        _ = ledger.chainIndex(store: .appStore, key: "2000000123456789")
      }
      #expect(Self.stderr(broken).contains("Ledger: read after release()"))
    }

    #if DEBUG
      /// Not a precondition (the per-element access of the hot loops), but checked in every debug build.
      @Test func bufferIndexesAreCheckedInDebugBuilds() async {
        let broken = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          let buffer = GrowableBuffer<Int64>()
          buffer.append(1)
          _ = buffer[1]
        }
        #expect(Self.stderr(broken).contains("GrowableBuffer: index 1 outside 0..<1"))
      }
    #endif
  }
}
