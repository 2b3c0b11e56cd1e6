import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconCLI
@testable import StoreReconRun

/// Stripe in a partitioned run (docs/partitions.md): `run --partition` and the engine's workers carry
/// `stripe.objects`, and the merge writes the whole run's reports byte for byte — the web plants, the
/// controls and the user who pays on the App Store and the web at once included.
@Suite(.serialized) struct StripePartitionTests {
  /// The Stripe world in `shape`, with its whole run in `<world>/out`.
  static func world(_ shape: StripeWorld.Shape) throws -> (StripeWorld, config: String, date: CivilDate) {
    let world = try StripeWorld(shape: shape)
    let date = CivilDate(year: 2026, month: 11, day: 29)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(world.config.path, date, world.out.path), progress: MemoryProgress())
    return (world, world.config.path, date)
  }

  /// Every file of the merge is the whole run's (the manifest's timings aside).
  static func expectSame(_ whole: String, _ merged: String, _ label: String) throws {
    let a = try PartitionedRunTests.files(whole)
    let b = try PartitionedRunTests.files(merged)
    #expect(Set(a.keys) == Set(b.keys), "\(label): the same files")
    #expect(a["findings.csv"] != nil && a["revenue.csv"] != nil)
    for (name, bytes) in a {
      if name == "manifest.json" {
        #expect(
          PartitionedRunTests.withoutTimings(bytes) == PartitionedRunTests.withoutTimings(b[name] ?? Data()),
          "\(label): \(name)")
      } else {
        #expect(bytes == b[name], "\(label): \(name) differs")
      }
    }
  }

  @Test func partitionsCarryStripeIntoTheWholeRunsReports() throws {
    let (world, config, date) = try Self.world(.basil)
    defer { world.remove() }
    let findings = try world.file("findings.csv")
    // The run is the one the partitions must match: web plants and the cross-store double billing.
    #expect(findings.contains("double_billing") && findings.contains(StripeWorld.id("sub", "double")))
    #expect(findings.contains(StripeWorld.id("sub", "orphan")))
    let dir = try TempDir()
    _ = try ReconciliationRun.writeKeymap(
      ReconciliationRun.Request(configPath: config, date: date), to: dir.path("keymap.tsv"),
      progress: MemoryProgress())
    let keymap = try ReconciliationRun.readKeymap(dir.path("keymap.tsv"))
    // The web subscription of the user who pays twice is in the lineage of their App Store purchase.
    let double = keymap.keymap.lineage(of: LineageNode.chain(.stripe, StripeWorld.id("sub", "double")))
    #expect(double == keymap.keymap.lineage(of: LineageNode.chain(.appStore, "2000000000000001")))
    for n in [1, 2, 3, 5] {
      let parts = try PartitionedRunTests.partitions(config, date, keymap: keymap, count: n, in: dir)
      _ = try ReconciliationRun.execute(
        PartitionedRunTests.request(
          config, date, dir.path("n\(n)/merged"), .merge(try ReconciliationRun.readPartials(parts.reversed()))
        ),
        progress: MemoryProgress())
      try Self.expectSame(world.out.path, dir.path("n\(n)/merged"), "Stripe, N=\(n)")
    }
  }

  @Test func workersCarryStripeIntoTheWholeRunsReports() throws {
    let (world, config, date) = try Self.world(.acacia)
    defer { world.remove() }
    let dir = try TempDir()
    let keymap = try WorkerProtocolTests.keymap(config, date, in: dir)
    for n in [1, 3, 4] {
      let stdins = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: n, minimumKeyed: 3)
      try WorkerProtocolTests.workAndMerge(
        config, date, keymap: keymap, stdins: stdins, in: dir, label: "n\(n)", minimumKeyed: 3)
      try Self.expectSame(world.out.path, dir.path("n\(n)/merged"), "Stripe worker, N=\(n)")
    }
  }
}
