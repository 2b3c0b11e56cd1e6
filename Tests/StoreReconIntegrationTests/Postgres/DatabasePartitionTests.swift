import Foundation
import Testing
import StoreReconTestSupport

/// A partitioned run whose app rows come from PostgreSQL: the keymap and each partition read the
/// contract queries, and the merge writes the single database run's reports (docs/partitions.md).
@Suite(.serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct DatabasePartitionTests {
  @Test func partitionsOverTheDatabaseMergeIntoTheSingleRunsReports() throws {
    let world = try DatabaseRunTests.LoadedWorld()
    let date = DatabaseRunTests.date
    let single = try world.run(["--no-history", "--quiet"], out: world.out("single"))
    #expect(single.status == 0, "\(single.stderr)")
    let keymap = world.out("keymap.tsv")
    let made = try Binary.run(
      [
        "keymap", "--config", world.config, "--date", date, "--out", keymap, "--database", world.url,
        "--quiet",
      ],
      in: Binary.packageRoot)
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("entries"))
    var parts: [String] = []
    for i in 0..<3 {
      let part = world.out("part\(i)")
      let run = try world.run(["--partition", "\(i)/3", "--keymap", keymap, "--quiet"], out: part)
      #expect(run.status == 0, "\(run.stderr)")
      parts.append(part)
    }
    let merged = try Binary.run(
      [
        "merge", "--config", world.config, "--date", date, "--out", world.out("merged"), "--database",
        world.url,
        "--no-history", "--quiet",
      ] + parts,
      in: Binary.packageRoot)
    #expect(merged.status == 0, "\(merged.stderr)")
    for name in [
      "findings.csv", "revenue.csv", "counts.csv", "grants.csv", "tieout.csv", "duplicates.csv",
      "experiment_arms.csv", "experiment_lineage.csv", "summary.txt", "reconciliation.xlsx",
      "price-tests.xlsx",
    ] {
      #expect(
        try world.file(world.out("single"), name) == world.file(world.out("merged"), name), "\(name) differs")
    }
  }
}
