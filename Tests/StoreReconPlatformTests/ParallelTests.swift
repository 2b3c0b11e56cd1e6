import Synchronization
import Testing

@testable import StoreReconPlatform

@Suite struct ParallelTests {
  struct Failure: Error, Equatable { let code: Int }

  @Test func partsComeBackInOrder() {
    let parts = Parallel.parts(for: 1000, minimum: 10)
    #expect(parts >= 1 && parts <= Parallel.cores)
    let ranges = Parallel.map(parts: parts) { Parallel.range($0, of: parts, count: 1000) }
    #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 1000)
    for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
    let (x, y) = Parallel.pair({ (1...100).reduce(0, +) }, { "b" })
    #expect(x == 5050 && y == "b")
  }

  @Test func backgroundWorkFinishesBeforeWaitReturns() throws {
    let value = Mutex(0)
    let work = BackgroundWork { () throws(Failure) in value.withLock { $0 = 42 } }
    try work.wait()
    #expect(value.withLock { $0 } == 42)
    try work.wait()  // waiting twice is harmless
  }

  @Test func backgroundWorkRethrowsItsError() {
    let work = BackgroundWork { () throws(Failure) in throw Failure(code: 7) }
    #expect(throws: Failure(code: 7)) { try work.wait() }
  }

  @Test func droppedBackgroundWorkIsWaitedFor() {
    let value = Mutex(0)
    do {
      _ = BackgroundWork { () throws(Failure) in
        for _ in 0..<1000 { value.withLock { $0 += 1 } }
      }
    }
    #expect(value.withLock { $0 } == 1000)
  }
}
