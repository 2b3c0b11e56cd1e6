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
      "payouts.csv",
      "experiment_arms.csv", "experiment_lineage.csv", "summary.txt", "reconciliation.xlsx",
      "price-tests.xlsx",
    ] {
      #expect(
        try world.file(world.out("single"), name) == world.file(world.out("merged"), name), "\(name) differs")
    }
  }

  @Test func aMergeKeepsTheRunHistoryAsTheSingleRunDoes() throws {
    let world = try DatabaseRunTests.LoadedWorld()
    let first = try world.run(["--quiet"], out: world.out("d1"))
    #expect(first.status == 0, "\(first.stderr)")
    // Between the dates: an entitlement with no store purchase appears.
    try world.connect().execute(
      """
      INSERT INTO entitlements VALUES ('ent_new', 'u_new', 'com.acme.pro.monthly', 'app_store', '1999999999999999',
        'active', '2026-11-01T00:00:00Z', '2027-11-01T00:00:00Z', NULL)
      """)
    let date = DatabaseRunTests.nextDate
    let keymap = world.out("keymap.tsv")
    let made = try Binary.run(
      [
        "keymap", "--config", world.config, "--date", date, "--out", keymap, "--database", world.url,
        "--quiet",
      ],
      in: Binary.packageRoot)
    #expect(made.status == 0, "\(made.stderr)")
    var parts: [String] = []
    for i in 0..<3 {
      let part = world.out("part\(i)")
      let run = try world.run(
        ["--partition", "\(i)/3", "--keymap", keymap, "--quiet"], date: date, out: part)
      #expect(run.status == 0, "\(run.stderr)")
      parts.append(part)
    }
    // The merge compares with the first date's history and records the second date's…
    let merged = try Binary.run(
      [
        "merge", "--config", world.config, "--date", date, "--out", world.out("merged"), "--database",
        world.url,
      ]
        + parts,
      in: Binary.packageRoot)
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr.contains("history (since \(DatabaseRunTests.date)): "), "\(merged.stderr)")
    // …as the single run of that date does (which replaces it).
    let single = try world.run(["--quiet"], date: date, out: world.out("single"))
    #expect(single.status == 0, "\(single.stderr)")
    for name in ["changes.csv", "findings.csv", "summary.txt", "summary.html", "reconciliation.xlsx"] {
      #expect(
        try world.file(world.out("single"), name) == world.file(world.out("merged"), name), "\(name) differs")
    }
    let runs = try world.connect().execute("SELECT count(*) FROM storerecon_runs")
    #expect(runs.value(0, 0) == "2")
  }
}
