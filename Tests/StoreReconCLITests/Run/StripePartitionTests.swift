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
/// controls, the user who pays on the App Store and the web at once, and the Stripe tie-out's
/// differences against the balance report included.
@Suite(.serialized) struct StripePartitionTests {
  /// The Stripe world in `shape`, with its whole run in `<world>/out`; with `balance`, Stripe's balance
  /// report beside it holding one tie-out difference of each kind (``plantBalance(_:)``).
  static func world(_ shape: StripeWorld.Shape, balance: Bool = false) throws -> (
    StripeWorld, config: String, date: CivilDate
  ) {
    let world = try StripeWorld(shape: shape)
    if balance { try plantBalance(world) }
    let date = CivilDate(year: 2026, month: 11, day: 29)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(world.config.path, date, world.out.path), progress: MemoryProgress())
    if balance {
      // The whole run ties out every kind of difference: the partitions must carry each.
      let statuses = Set(try StripeBalanceRunTests.stripeOrders(world).map { $0[9] })
      #expect(
        statuses.isSuperset(of: ["match", "missing_in_feed", "amount_differs", "fee_differs"]), "\(statuses)")
    }
    return (world, world.config.path, date)
  }

  /// Stripe's balance report for the world, Stripe keeping 2.9 % of each charge, but for the second
  /// charge's amount and the third's fee; a charge the feed lacks; fee rows bounding the interval.
  static func plantBalance(_ world: StripeWorld) throws {
    try StripeBalanceRunTests.configure(world)
    var charges = 0
    let text = try StripeBalanceRunTests.report(world) { _, cells in
      guard var c = cells, c[6] == "charge" else { return }
      charges += 1
      if charges == 2 {
        c[3] = "1.00"
        c[5] = "1.00"
      } else if charges == 3 {
        c[4] = c[3]
        c[5] = c[2] == "jpy" ? "0" : "0.00"
      }
      cells = c
    }
    let extra =
      [
        "txn_web,2026-11-10 10:00:00,usd,5.00,0.15,4.85,charge,ch_notinfeed,ch_notinfeed,,po_1,2026-11-30 00:00:00",
        "txn_f1,2026-01-01 00:00:00,usd,-1.00,0.00,-1.00,fee,fee_1,,,,",
        "txn_f2,2026-11-28 23:00:00,usd,-1.00,0.00,-1.00,fee,fee_2,,,,",
      ].joined(separator: "\n") + "\n"
    try StripeBalanceRunTests.write(world, "balance_2026-11.csv", text + extra)
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
    let (world, config, date) = try Self.world(.basil, balance: true)
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
    let (world, config, date) = try Self.world(.acacia, balance: true)
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
