import Foundation
import StoreReconTestSupport
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun
@testable import StoreReconPlatform

/// contrib/spark/storerecon_spark.py with pyspark `local[2]`: Spark tags, partitions and pipes the keyed
/// inputs' lines through `storerecon worker run` (8 partitions, one failing once: Spark retries it),
/// and the driver merges the partials into the single run's reports.
enum SparkAdapter {
  /// A Python with pyspark (`.ci/run` makes one in a virtual environment and names it here).
  static let python = ProcessInfo.processInfo.environment["STORERECON_PYSPARK_PYTHON"] ?? ""
  static var available: Bool {
    !python.isEmpty && FileManager.default.isExecutableFile(atPath: python) && Binary.path != nil
  }
  static let skipMessage: Comment =
    "STORERECON_PYSPARK_PYTHON names no Python with pyspark (.ci/run sets it up), or storerecon is not built"
}

@Suite(.serialized, .enabled(if: SparkAdapter.available, SparkAdapter.skipMessage))
struct SparkAdapterTests {
  /// Runs the adapter; returns its exit status and its log.
  static func spark(_ arguments: [String], in dir: TempDir) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: SparkAdapter.python)
    process.arguments =
      [Binary.packageRoot.appendingPathComponent("contrib/spark/storerecon_spark.py").path] + arguments
      + ["--master", "local[2]", "--worker", Binary.path ?? "storerecon"]
    let log = dir.path("spark-\(UInt32.random(in: 0...UInt32.max)).log")
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
  }

  @Test func sparkRunWithARetriedTaskGivesTheSingleRunsReports() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    let (status, text) = try SparkAdapterTests.spark(
      [
        "--config", config, "--date", date.description, "--partitions", "8", "--out", dir.path("spark"),
        "--fail-once", "3", "--executor-worker", try #require(Binary.workerPath),
      ], in: dir)
    #expect(status == 0, "\(text.suffix(3000))")
    // Spark split the keyed inputs' lines (the shuffle path) and piped them through storerecon-worker,
    // the injected failure happened, and Spark retried the task.
    #expect(text.contains("7 keyed inputs"))
    #expect(text.contains("injected failure of partition 3/8"))
    #expect(text.contains("partition 3/8:") && text.contains("partial "))
    try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("spark"), "Spark local[2], N=8")
  }

  @Test func sparkTasksModeGivesTheSameReports() throws {
    // One task per partition, each reading every input (the path for app rows in PostgreSQL).
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 300)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    let (status, text) = try SparkAdapterTests.spark(
      [
        "--config", config, "--date", date.description, "--partitions", "3", "--out", dir.path("spark"),
        "--mode", "tasks",
      ], in: dir)
    #expect(status == 0, "\(text.suffix(3000))")
    #expect(!text.contains("keyed inputs"))
    try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("spark"), "Spark tasks, N=3")
  }

  @Test func sparkCarriesStripeIntoTheSingleRunsReports() throws {
    // stripe.objects and stripe.reports are shared: every worker reads them whole and keeps its
    // lineages; the user paying on the App Store and the web is decided in one partition.
    let (world, config, date) = try StripePartitionTests.world(.basil, balance: true)
    defer { world.remove() }
    let dir = try TempDir()
    let (status, text) = try SparkAdapterTests.spark(
      [
        "--config", config, "--date", date.description, "--partitions", "4", "--out", dir.path("spark"),
        "--executor-worker", try #require(Binary.workerPath),
      ], in: dir)
    #expect(status == 0, "\(text.suffix(3000))")
    #expect(text.contains("3 keyed inputs, 2 shared"))
    try StripePartitionTests.expectSame(world.out.path, dir.path("spark"), "Spark with Stripe, N=4")
  }
}
