import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// A partitioned run (keymap, N partitions, merge) writes the same reports as one run, byte for byte
/// (docs/partitions.md); the manifest differs only in its timings.
@Suite(.serialized) struct PartitionedRunTests {
  /// The demo world (price experiments included) and its report date.
  static func world(_ dir: TempDir, users: Int = 400, realistic: Bool = false) throws -> (
    config: String, date: CivilDate
  ) {
    var options = DemoOptions()
    options.users = users
    options.realistic = realistic
    _ = try DemoWorld.generate(options, into: dir.path("world"))
    return (dir.path("world/storerecon.json"), options.asOf)
  }

  static func request(_ config: String, _ date: CivilDate, _ out: String, _ mode: RunMode = .whole)
    -> ReconciliationRun.Request
  {
    var r = ReconciliationRun.Request(configPath: config, date: date, outDirectory: out)
    r.mode = mode
    return r
  }

  /// Every file of `folder`, by path inside it.
  static func files(_ folder: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: folder)
    while let name = walker?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      out[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return out
  }

  /// The manifest without its timings (the milliseconds each input and step took).
  static func withoutTimings(_ data: Data) -> String {
    String(decoding: data, as: UTF8.self).split(separator: "\n").filter { line in
      let t = line.trimmingCharacters(in: .whitespaces)
      let timed = [
        "\"elapsedMs\"", "\"read\":", "\"reconcile\":", "\"experiments\":", "\"write\":", "\"workbook\":",
        "\"total\":",
      ]
      return !timed.contains { t.hasPrefix($0) && t.last != "{" && t.last != "[" }
    }.joined(separator: "\n")
  }

  static func expectSameReports(_ whole: String, _ merged: String, _ label: String) throws {
    let a = try files(whole)
    let b = try files(merged)
    #expect(Set(a.keys) == Set(b.keys), "\(label): the same files")
    #expect(a.count > 20)
    #expect(a["experiment_lineage.csv"] != nil && a["price-tests.xlsx"] != nil)
    for (name, bytes) in a {
      if name == "manifest.json" {
        #expect(withoutTimings(bytes) == withoutTimings(b[name] ?? Data()), "\(label): \(name)")
      } else {
        #expect(bytes == b[name], "\(label): \(name) differs")
      }
    }
  }

  /// Runs the N partitions and returns their folders.
  static func partitions(
    _ config: String, _ date: CivilDate, keymap: (keymap: LineageKeymap, digest: String), count: Int,
    in dir: TempDir
  )
    throws -> [String]
  {
    try (0..<count).map { i in
      let out = dir.path("n\(count)/part\(i)")
      let spec = try #require(PartitionSpec(index: i, count: count))
      _ = try ReconciliationRun.execute(
        request(config, date, out, .partition(spec, keymap.keymap, digest: keymap.digest)),
        progress: MemoryProgress())
      return out
    }
  }

  @Test func partitionedRunsMergeIntoTheSameReportsForEveryCount() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    let line = try ReconciliationRun.writeKeymap(
      ReconciliationRun.Request(configPath: config, date: date), to: dir.path("keymap.tsv"),
      progress: MemoryProgress())
    #expect(line.contains("entries"))
    let keymap = try ReconciliationRun.readKeymap(dir.path("keymap.tsv"))
    #expect(!keymap.keymap.entries.isEmpty)
    for n in [1, 2, 3, 7, 16] {
      var parts = try PartitionedRunTests.partitions(config, date, keymap: keymap, count: n, in: dir)
      // The merge takes the partials in any order.
      parts.reverse()
      let merged = try ReconciliationRun.readPartials(parts)
      _ = try ReconciliationRun.execute(
        PartitionedRunTests.request(config, date, dir.path("n\(n)/merged"), .merge(merged)),
        progress: MemoryProgress())
      try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("n\(n)/merged"), "N=\(n)")
    }
  }

  @Test func theRealisticWorldPartitionsToTheSameReports() throws {
    // UUID and long ids, every field in any order, long chains, family sharing (docs/benchmark.md).
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 1500, realistic: true)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    _ = try ReconciliationRun.writeKeymap(
      ReconciliationRun.Request(configPath: config, date: date), to: dir.path("keymap.tsv"),
      progress: MemoryProgress())
    let keymap = try ReconciliationRun.readKeymap(dir.path("keymap.tsv"))
    let parts = try PartitionedRunTests.partitions(config, date, keymap: keymap, count: 3, in: dir)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(
        config, date, dir.path("merged"), .merge(try ReconciliationRun.readPartials(parts))),
      progress: MemoryProgress())
    try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("merged"), "realistic, N=3")
  }

  @Test func shuffledInputsPartitionAsTheyReconcile() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    // The store records and the app's rows in another order (headers kept first).
    var generator = SplitMix(state: 7)
    for (file, header) in [
      ("exports/apple/transactions.jsonl", 0), ("app/entitlements.csv", 1), ("app/credentials.csv", 1),
    ] {
      let path = dir.path("world/" + file)
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: true)
      let shuffled = Array(lines.prefix(header)) + lines.dropFirst(header).shuffled(using: &generator)
      try (shuffled.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    _ = try ReconciliationRun.writeKeymap(
      ReconciliationRun.Request(configPath: config, date: date), to: dir.path("keymap.tsv"),
      progress: MemoryProgress())
    let keymap = try ReconciliationRun.readKeymap(dir.path("keymap.tsv"))
    let parts = try PartitionedRunTests.partitions(config, date, keymap: keymap, count: 4, in: dir)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(
        config, date, dir.path("merged"), .merge(try ReconciliationRun.readPartials(parts))),
      progress: MemoryProgress())
    try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("merged"), "shuffled, N=4")
  }

  @Test func eachLineageFindingLandsInExactlyOnePartition() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    // No run history: a partial's findings carry no `since`, so the whole run's must not either.
    var wholeRequest = PartitionedRunTests.request(config, date, dir.path("whole"))
    wholeRequest.history = false
    let whole = try ReconciliationRun.execute(wholeRequest, progress: MemoryProgress())
    _ = try ReconciliationRun.writeKeymap(
      ReconciliationRun.Request(configPath: config, date: date), to: dir.path("keymap.tsv"),
      progress: MemoryProgress())
    let keymap = try ReconciliationRun.readKeymap(dir.path("keymap.tsv"))
    let parts = try PartitionedRunTests.partitions(config, date, keymap: keymap, count: 5, in: dir)
    let partials = try parts.map {
      try RunPartial(parsing: Array(Data(contentsOf: URL(fileURLWithPath: $0 + "/partial.tsv"))))
    }
    // Two users claiming one purchase, a Play upgrade's older purchase, a user paying twice: the rule
    // saw the whole group, in one partition, and said what the whole run says.
    for reason in [Finding.Reason.multipleUsers, .superseded, .acrossStores, .withinStore] {
      let expected = whole.findings.filter { $0.reason == reason }
      #expect(!expected.isEmpty, "\(reason)")
      for f in expected {
        let holders = partials.filter { $0.findings.contains(f) }
        #expect(holders.count == 1, "\(reason) \(f.chainKey) \(f.userId) is in \(holders.count) partitions")
      }
    }
    #expect(partials.map(\.findings.count).reduce(0, +) == whole.findings.count)
    #expect(Set(partials.map { $0.findings.count }).count > 1 || partials.allSatisfy { !$0.findings.isEmpty })
  }

  @Test func wrongPartitionArgumentsAreUsageErrors() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 300)
    let d = date.description
    #expect(
      StoreReconCLI.main([
        "run", "--config", config, "--date", d, "--out", dir.path("p"), "--partition", "3/3", "--keymap", "k",
        "--quiet",
      ]) == 64)
    #expect(
      StoreReconCLI.main([
        "run", "--config", config, "--date", d, "--out", dir.path("p"), "--partition", "0/3", "--quiet",
      ]) == 64)
    #expect(
      StoreReconCLI.main(["merge", "--config", config, "--date", d, "--out", dir.path("m"), "--quiet"]) == 64)
    // A missing partition is a data error, named.
    _ = StoreReconCLI.main(["keymap", "--config", config, "--date", d, "--out", dir.path("k.tsv"), "--quiet"])
    #expect(
      StoreReconCLI.main([
        "run", "--config", config, "--date", d, "--out", dir.path("p0"), "--partition", "0/2", "--keymap",
        dir.path("k.tsv"), "--quiet",
      ]) == 0)
    #expect(
      StoreReconCLI.main([
        "merge", "--config", config, "--date", d, "--out", dir.path("m"), "--quiet", dir.path("p0"),
      ]) == 65)
    // Partials of other inputs are refused: a partition of the run, then an input changes.
    #expect(
      StoreReconCLI.main([
        "run", "--config", config, "--date", d, "--out", dir.path("p1"), "--partition", "1/2", "--keymap",
        dir.path("k.tsv"), "--quiet",
      ]) == 0)
    let entitlements = dir.path("world/app/entitlements.csv")
    let text = try String(contentsOfFile: entitlements, encoding: .utf8)
    try (text + "extra-entitlement,u-extra,com.acme.pro.monthly,app_store,,active,,,\n").write(
      toFile: entitlements, atomically: true, encoding: .utf8)
    #expect(
      StoreReconCLI.main([
        "merge", "--config", config, "--date", d, "--out", dir.path("m2"), "--quiet", dir.path("p0"),
        dir.path("p1"),
      ]) == 65)
    #expect(!FileManager.default.fileExists(atPath: dir.path("m2/findings.csv")))
  }
}

/// A seeded generator for the shuffles (SplitMix64).
struct SplitMix: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
