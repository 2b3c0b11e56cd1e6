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
    for passes in [2, 3, 4] {
      try Self.expectSameInPasses(
        world.config.path, date, whole: dir.path("whole"), passed: dir.path("passes\(passes)"),
        passes: passes, label: "Stripe, \(passes) passes")
      let findings = try String(contentsOfFile: dir.path("passes\(passes)/findings.csv"), encoding: .utf8)
      #expect(findings.contains("double_billing") && findings.contains(StripeWorld.id("sub", "double")))
    }
  }

  @Test func idsRepeatedAcrossLineagesAreLeftOutAsInOnePass() throws {
    // A pass leaves other lineages' app rows out while reading them, yet an entitlement_id or
    // credit_id that a row of another user read earlier still makes a later row a repeat: the same
    // rows kept, the same rejects (with the column that differs) as the one pass.
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    let entitlements = dir.path("world/app/entitlements.csv")
    let credits = dir.path("world/app/credits.csv")
    try Self.repeatIds(in: entitlements, idColumn: 0, userColumn: 1)
    try Self.repeatIds(in: credits, idColumn: 0, userColumn: 1)
    try Self.runWhole(config, date, whole: dir.path("whole"))
    let rejects = try String(
      contentsOfFile: dir.path("whole/rejects/app_entitlements.csv.csv"), encoding: .utf8)
    #expect(rejects.contains("user_id"), "the one pass names the differing column: \(rejects)")
    for passes in [2, 3, 4] {
      try Self.expectSameInPasses(
        config, date, whole: dir.path("whole"), passed: dir.path("passes\(passes)"), passes: passes,
        label: "repeated ids, \(passes) passes")
    }
  }

  /// Appends to a CSV file copies of its first 12 data rows, each under another row's user (a repeat
  /// across lineages), and a copy of row 3 as it is (a duplicate).
  static func repeatIds(in path: String, idColumn: Int, userColumn: Int) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    var added: [String] = []
    for i in 1...12 {
      var cells = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let other = lines[lines.count - i].split(separator: ",", omittingEmptySubsequences: false)
      cells[userColumn] = String(other[userColumn])
      added.append(cells.joined(separator: ","))
    }
    added.append(lines[3])
    try (text + added.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test func theKeymapReadOneInputAtATimeIsTheWholeReadsKeymap() throws {
    // Play upgrades (linked tokens), sales rows keyed by order, credentials and entitlements joining
    // users to chains, Stripe's aliases: each input joined and freed before the next gives the graph
    // of the whole read.
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, realistic: true)
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    for (label, path) in [("realistic demo", config), ("Stripe", world.config.path)] {
      let request = ReconciliationRun.Request(configPath: path, date: date)
      _ = try ReconciliationRun.writeKeymap(request, to: dir.path("keymap.tsv"), progress: MemoryProgress())
      let streamed = try ReconciliationRun.readKeymap(dir.path("keymap.tsv")).keymap
      let setup = try ReconciliationRun.setUp(request, progress: MemoryProgress())
      try FileManager.default.createDirectory(
        atPath: dir.path("scratch/rejects"), withIntermediateDirectories: true)
      let inputs = try ReconciliationRun.readInputs(
        setup.plan, database: nil,
        rejects: ReconciliationRun.RejectRules(
          folder: dir.path("scratch"), damaged: setup.config.damaged, allowDamaged: true),
        progress: MemoryProgress(), clock: ContinuousClock())
      var graph = LineageGraph()
      inputs.builder.joinLineages(into: &graph)
      inputs.rows.joinLineages(into: &graph)
      for (alias, key) in inputs.stripeAliases {
        graph.join(LineageNode.chain(.stripe, alias), LineageNode.chain(.stripe, key))
      }
      let whole = graph.keymap()
      // The realistic demo's graph has thousands of nodes; the Stripe world's a few dozen.
      #expect(whole.entries.count > (label == "Stripe" ? 20 : 100), "\(label)")
      #expect(streamed == whole, "\(label): the same keymap")
      // A pass's share of it owns exactly the nodes the whole keymap gives its partition.
      let bytes = whole.rendered()
      for count in [2, 3] {
        for index in 0..<count {
          let spec = try #require(PartitionSpec(index: index, count: count))
          let share = try LineageKeymap(parsing: bytes, share: spec)
          #expect(share.entries.isEmpty)
          for node in whole.entries.keys.sorted().prefix(2_000) + ["u:nobody", "a:1"] {
            #expect(share.owns(node, in: spec) == whole.owns(node, in: spec), "\(label) \(spec) \(node)")
          }
        }
      }
    }
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
