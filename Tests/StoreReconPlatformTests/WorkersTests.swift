import Synchronization
import Testing

@testable import StoreReconPlatform

@Suite struct WorkersTests {
  struct Failure: Error, Equatable { let index: Int }

  @Test func runsOnAsManyThreadsAsAskedEvenOnFewCoresAndKeepsTheOrder() {
    // Each item waits until all four have started: only four threads at once get through (on two cores
    // too); a pool cut per core would wait out the 10-second guard and answer false.
    let arrived = Mutex(0)
    let results = Workers.run(count: 4, threads: 4) { index -> Result<Int, Failure> in
      arrived.withLock { $0 += 1 }
      var waited = 0.0
      while arrived.withLock({ $0 }) < 4 && waited < 10 {
        Pause.sleep(0.005)
        waited += 0.005
      }
      return arrived.withLock { $0 } == 4 ? .success(index) : .failure(Failure(index: index))
    }
    #expect(results.map { try? $0?.get() } == [0, 1, 2, 3])
  }

  @Test func stopsHandingOutAfterAFailure() {
    let results = Workers.run(count: 100, threads: 1) { index -> Result<Int, Failure> in
      index == 3 ? .failure(Failure(index: 3)) : .success(index)
    }
    #expect(results.prefix(3).map { try? $0?.get() } == [0, 1, 2])
    #expect(results[4...].allSatisfy { $0 == nil })
    let many = Workers.run(count: 1000, threads: 4) { index -> Result<Int, Failure> in
      index == 10 ? .failure(Failure(index: 10)) : .success(index)
    }
    #expect(many[..<10].allSatisfy { $0 != nil }, "every index before the failure ran")
    #expect(many.compactMap { $0 }.count < 1000, "the hand-out stopped")
  }
}
