import Foundation
import StoreReconTestSupport
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconPlatform

/// contrib/spark/storerecon_spark.py with pyspark `local[2]`: 8 partitions as Spark tasks, one of them
/// failing once (Spark retries it), merged on the driver into the single run's reports.
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
  @Test func sparkRunWithARetriedTaskGivesTheSingleRunsReports() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    let process = Process()
    process.executableURL = URL(fileURLWithPath: SparkAdapter.python)
    process.arguments = [
      Binary.packageRoot.appendingPathComponent("contrib/spark/storerecon_spark.py").path, "--config", config,
      "--date", date.description, "--partitions", "8", "--out", dir.path("spark"), "--master", "local[2]",
      "--worker", Binary.path ?? "storerecon", "--fail-once", "3",
    ]
    let log = dir.path("spark.log")
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(process.terminationStatus == 0, "\(text.suffix(3000))")
    // The injected failure happened, and Spark retried the task.
    #expect(text.contains("injected failure of partition 3/8"))
    #expect(text.contains("partition 3/8:"))
    try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("spark"), "Spark local[2], N=8")
  }
}
