import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports

/// Per-arm metrics, intervals, verdicts and the cumulative series of the readout: the part that compares
/// the readout through the experiment tables of StoreReconReports (the rest is in StoreReconCoreTests).
@Suite struct ReadoutMetricsTests {
  @Test func readoutIsReproducibleAndDependsOnTheSeed() {
    let control = Ex.cohort("control", prefix: "c", n: 60, payers: 25, price: 499)
    let high = Ex.cohort("high", prefix: "h", n: 60, payers: 20, price: 699)
    func run(seed: UInt64) -> Readout {
      var e = Ex.experiment
      e.bootstrap.seed = seed
      return Ex.readout(
        control.records + high.records, credentials: control.credentials + high.credentials,
        assignments: (control.assignments + high.assignments).reversed(), experiment: e)
    }
    let a = run(seed: 1)
    let b = run(seed: 1)
    let c = run(seed: 2)
    #expect(ExperimentTables.armsCSV([a]) == ExperimentTables.armsCSV([b]))
    #expect(ExperimentTables.lineageCSV([a]) == ExperimentTables.lineageCSV([b]))
    #expect(a.arms[1].difference?.bootstrap != c.arms[1].difference?.bootstrap)
  }
}
