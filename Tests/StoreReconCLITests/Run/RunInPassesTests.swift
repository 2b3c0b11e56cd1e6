import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconCLI
@testable import StoreReconRun

/// A run whose inputs need more than `--memory` reconciles in passes by lineage inside one process and
/// writes the reports of a one-pass run, every file byte for byte (docs/partitions.md#runs-in-passes).
@Suite(.serialized) struct RunInPassesTests {
  /// A budget that makes the config's inputs take `passes` passes.
  static func budget(_ config: String, passes: Int) throws -> Int64 {
    let loaded = try RunConfig.load(path: config)
    let (plan, _) = try ReconciliationRun.planInputs(loaded, configPath: config)
    let workingSet = ReconciliationRun.estimatedWorkingSet(plan)
    #expect(workingSet > 0)
    let budget = workingSet / Int64(passes) + 1
    #expect(ReconciliationRun.passCount(workingSet: workingSet, budget: budget) == passes)
    return budget
  }

  /// Runs `config` in one pass (the default: no budget) into `whole`.
  static func runWhole(_ config: String, _ date: CivilDate, whole: String) throws {
    var one = PartitionedRunTests.request(config, date, whole)
    one.history = false
    let progress = MemoryProgress()
    _ = try ReconciliationRun.executeWithinMemory(one, progress: progress)
    #expect(!progress.lines.contains { $0.contains("passes by lineage") }, "no budget: one pass")
  }

  /// Runs `config` in `passes` passes into `passed` and compares every file with the one pass's.
  static func expectSameInPasses(
    _ config: String, _ date: CivilDate, whole: String, passed: String, passes: Int, label: String
  ) throws {
    var inPasses = PartitionedRunTests.request(config, date, passed)
    inPasses.history = false
    inPasses.memoryBytes = try budget(config, passes: passes)
    let progress = MemoryProgress()
    _ = try ReconciliationRun.executeWithinMemory(inPasses, progress: progress)
    let announced = try #require(progress.lines.first { $0.contains("passes by lineage, spilling to ") })
    #expect(announced.contains("\(passes) passes"), "\(label)")
    #expect(progress.lines.filter { $0.hasPrefix("pass ") }.count == passes, "\(label)")
    #expect(
      progress.lines.contains { $0.hasPrefix("passes done: merging \(passes) partials (temporary folder ") })
    // The temporary folder is gone once the run ends.
    let folder = String(announced[announced.range(of: "spilling to ")!.upperBound...])
    #expect(!FileManager.default.fileExists(atPath: folder), "\(label): \(folder) removed")
    try StripePartitionTests.expectSame(whole, passed, label)
    let charges = String(
      decoding: try Data(contentsOf: URL(fileURLWithPath: passed + "/charges.csv")), as: UTF8.self)
    #expect(charges.contains("\nrefund,"), "\(label): charges.csv holds refunds")
  }

  @Test func theDemoWorldInPassesWritesTheOnePassReports() throws {
    // Refunds, upgrades, double billing, credits and price experiments (the demo's plants).
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    try Self.runWhole(config, date, whole: dir.path("whole"))
    for passes in [2, 5] {
      try Self.expectSameInPasses(
        config, date, whole: dir.path("whole"), passed: dir.path("passes\(passes)"), passes: passes,
        label: "demo, \(passes) passes")
    }
  }

  @Test func theStripeWorldInPassesWritesTheOnePassReports() throws {
    // Web subscriptions and the user who pays on the App Store and the web at once (double billing
    // across stores), Stripe refunds and disputes.
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    let date = CivilDate(year: 2026, month: 11, day: 29)
    let dir = try TempDir()
    try Self.runWhole(world.config.path, date, whole: dir.path("whole"))
    try Self.expectSameInPasses(
      world.config.path, date, whole: dir.path("whole"), passed: dir.path("passes"), passes: 3,
      label: "Stripe, 3 passes")
    let findings = try String(contentsOfFile: dir.path("passes/findings.csv"), encoding: .utf8)
    #expect(findings.contains("double_billing") && findings.contains(StripeWorld.id("sub", "double")))
  }

  @Test func thePassCountFollowsTheBudget() {
    #expect(ReconciliationRun.passCount(workingSet: 900, budget: 1_000) == 1)
    #expect(ReconciliationRun.passCount(workingSet: 1_000, budget: 1_000) == 1)
    #expect(ReconciliationRun.passCount(workingSet: 1_001, budget: 1_000) == 2)
    #expect(ReconciliationRun.passCount(workingSet: 10_000, budget: 1_000) == 10)
    #expect(ReconciliationRun.passCount(workingSet: Int64.max, budget: 1) == PartitionSpec.maxCount)
  }

  @Test func memorySizesParse() {
    #expect(StoreReconCLI.memoryBytes("1G") == 1 << 30)
    #expect(StoreReconCLI.memoryBytes("512M") == 512 << 20)
    #expect(StoreReconCLI.memoryBytes("2GiB") == 2 << 30)
    #expect(StoreReconCLI.memoryBytes("64K") == 64 << 10)
    #expect(StoreReconCLI.memoryBytes("1000") == 1000)
    for bad in ["", "0", "1.5G", "-1G", "G", "1T", "12 M", "99999999999G"] {
      #expect(StoreReconCLI.memoryBytes(bad) == nil, "\(bad)")
    }
  }

  @Test func memoryIsAUsageErrorOnAPartitionAndABadSize() throws {
    let bad = try Binary.run(["run", "--config", "x.json", "--memory", "lots"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--memory must be a size in bytes"))
    let partition = try Binary.run([
      "run", "--config", "x.json", "--date", "2026-11-29", "--out", "o", "--partition", "0/2", "--keymap",
      "k",
      "--memory", "1G",
    ])
    #expect(partition.status == 64)
    #expect(partition.stderr.contains("--memory belongs to a whole run"))
  }
}
