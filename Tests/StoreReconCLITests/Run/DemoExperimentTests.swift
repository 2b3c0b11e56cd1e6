import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// The demo's price experiment through the whole job: the readout equals what the generator generated.
@Suite(.serialized) struct DemoExperimentTests {
  /// Runs the demo and returns its outcome and report folder.
  static func run(users: Int, seed: UInt64, asOf: CivilDate? = nil) throws -> (DemoRun.Outcome, URL, URL) {
    let dir = try Binary.temporaryDirectory()
    var options = DemoOptions()
    options.users = users
    options.seed = seed
    if let asOf { options.asOf = asOf }
    let outcome = try DemoRun.execute(options: options, directory: dir.path, progress: MemoryProgress())
    return (outcome, dir, dir.appendingPathComponent("reports/\(options.asOf)"))
  }

  @Test(arguments: [(UInt64(42), 3000), (UInt64(7), 1200)])
  func readoutMatchesTheGeneratorsTruthPerArm(seed: UInt64, users: Int) throws {
    let (outcome, dir, reports) = try Self.run(users: users, seed: seed)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(outcome.exitCode == 0)
    let readout = try #require(outcome.result.experiments.first)
    let truth = outcome.truth.experimentArms
    #expect(truth.map(\.armId) == readout.arms.map(\.arm.id))
    for (arm, expected) in zip(readout.arms, truth) {
      let row = arm.reporting
      let id = expected.armId
      #expect(expected.assigned > 100, "\(id)")
      #expect(row.assigned == expected.assigned, "\(id) assigned")
      #expect(row.trials == expected.trials, "\(id) trials")
      #expect(row.trialConversions == expected.trialConversions, "\(id) trial conversions")
      #expect(row.paidConversions == expected.paidConversions, "\(id) paid conversions")
      #expect(row.renewals == expected.renewals, "\(id) renewals")
      #expect(arm.chainsAssignedAfterPurchase == expected.chainsNotCredited, "\(id) not credited")
      #expect(row.grossMinor == expected.reportingGrossMinor, "\(id) gross USD")
      #expect(row.proceedsMinor == expected.reportingProceedsMinor, "\(id) proceeds USD")
      #expect(
        arm.currencies.map(\.currency.code) == expected.grossByCurrency.keys.sorted(), "\(id) currencies")
      for c in arm.currencies {
        let code = c.currency.code
        #expect(c.grossMinor == expected.grossByCurrency[code], "\(id) gross \(code)")
        #expect(c.proceedsMinor == expected.proceedsByCurrency[code], "\(id) proceeds \(code)")
        #expect(
          c.paidConversions == expected.paidConversionsByCurrency[code] ?? 0, "\(id) conversions \(code)")
        #expect(c.renewals == expected.renewalsByCurrency[code] ?? 0, "\(id) renewals \(code)")
      }
    }
    #expect(readout.fxGaps.isEmpty)
    #expect(readout.arms.allSatisfy { $0.chainsExcluded == 0 && $0.chainsOfOtherArmsProducts == 0 })

    // The lineage ties to the arm table, and both files are listed in the manifest.
    let lineage = try String(
      contentsOf: reports.appendingPathComponent("experiment_lineage.csv"), encoding: .utf8)
    var lines = lineage.split(separator: "\n").map(String.init)
    #expect(lines.removeFirst() == ExperimentTables.lineageHeader.joined(separator: ","))
    #expect(lines.count == readout.lineage.count)
    for arm in readout.arms {
      let rows = readout.lineage.filter { $0.armId == arm.arm.id }
      #expect(rows.reduce(Int64(0)) { $0 + ($1.reportingMinor ?? 0) } == arm.reporting.proceedsMinor)
      #expect(rows.filter { $0.renewalNumber > 0 }.count == arm.reporting.renewals)
      #expect(Set(rows.map(\.userId)).count == arm.reporting.paidConversions)
    }
    let arms = try String(contentsOf: reports.appendingPathComponent("experiment_arms.csv"), encoding: .utf8)
    let armLines = arms.split(separator: "\n")
    #expect(armLines.first.map(String.init) == ExperimentTables.armsHeader.joined(separator: ","))
    #expect(armLines.count == 1 + readout.arms.reduce(0) { $0 + 1 + $1.currencies.count })
    // The product manager's columns come last; P(best) over the arms is a probability, and each
    // challenger's lift lies in its interval and has the sign of its difference.
    #expect(
      Array(ExperimentTables.armsHeader.suffix(4)) == [
        "relative_lift", "relative_lift_low", "relative_lift_high", "p_best",
      ])
    let best = readout.arms.compactMap(\.probabilityBest)
    #expect(best.count == readout.arms.count && abs(best.reduce(0, +) - 1) < 1e-9, "\(best)")
    for arm in readout.arms.dropFirst() {
      let d = try #require(arm.difference)
      let lift = try #require(d.relativeLift)
      let interval = try #require(d.relativeLiftInterval)
      #expect(interval.low <= lift && lift <= interval.high, "\(arm.arm.id) \(lift) \(interval)")
      #expect((lift > 0) == (d.estimate > 0), "\(arm.arm.id)")
    }
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: reports.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let outputs = (manifest?["outputs"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }
    #expect(outputs.contains("experiment_arms.csv") && outputs.contains("experiment_lineage.csv"))
    let inputs = (manifest?["inputs"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }
    #expect(inputs.contains("fx.rates"))
  }

  @Test func defaultDemoShowsThePlantedEffectAndRerunsByteIdentically() throws {
    let (outcome, dir, reports) = try Self.run(users: 5000, seed: 42)
    defer { try? FileManager.default.removeItem(at: dir) }
    let readout = try #require(outcome.result.experiments.first)
    // High converts less but earns more per assigned user; the SRM test finds nothing wrong.
    let (control, high) = (readout.arms[0].reporting, readout.arms[1].reporting)
    #expect((high.conversionRate ?? 1) < (control.conversionRate ?? 0))
    #expect((high.revenuePerAssignedMinor ?? 0) > (control.revenuePerAssignedMinor ?? 0))
    #expect(readout.arms.map(\.verdict) == [.control, .leading])
    #expect(!readout.hasSampleRatioMismatch)
    #expect(readout.arms.allSatisfy { $0.reporting.matureShare == 1 })
    #expect(outcome.text.contains("experiment paywall-price-2026-09"))

    let first = try Data(contentsOf: reports.appendingPathComponent("experiment_arms.csv"))
    let firstLineage = try Data(contentsOf: reports.appendingPathComponent("experiment_lineage.csv"))
    var options = DemoOptions()
    options.users = 5000
    _ = try DemoRun.execute(options: options, directory: dir.path, progress: MemoryProgress())
    #expect(try Data(contentsOf: reports.appendingPathComponent("experiment_arms.csv")) == first)
    #expect(try Data(contentsOf: reports.appendingPathComponent("experiment_lineage.csv")) == firstLineage)
    let truth = try String(
      contentsOf: dir.appendingPathComponent(DemoWorld.experimentTruthPath), encoding: .utf8)
    #expect(truth.hasPrefix("experiment_id,arm_id,scope,currency,assigned,"))
  }

  @Test func worldBeforeTheExperimentReadsOutEmpty() throws {
    let (outcome, dir, _) = try Self.run(users: 600, seed: 7, asOf: CivilDate(year: 2026, month: 3, day: 15))
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(outcome.exitCode == 0)
    let readout = try #require(outcome.result.experiments.first)
    #expect(readout.arms.allSatisfy { $0.reporting.assigned == 0 })
    #expect(readout.lineage.isEmpty && readout.srm == nil)
    #expect(readout.arms.allSatisfy { $0.series.isEmpty })
    #expect(outcome.truth.experimentArms.allSatisfy { $0.assigned == 0 })
  }
}
