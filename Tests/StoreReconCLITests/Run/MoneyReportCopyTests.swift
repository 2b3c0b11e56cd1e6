import Foundation
import Testing
import StoreReconTestSupport

/// The stores' money reports are read once per report (issue 32, defect 2): a copy counts as
/// duplicates and changes no report; a second file for the same period with other rows is exit 65
/// naming both (docs/inputs.md#a-money-report-given-twice).
@Suite(.serialized) struct MoneyReportCopyTests {
  static let salesDay = "exports/apple/reports/S_D_85012345_20261120.txt"
  static let tables = ["tieout.csv", "tieout_orders.csv", "revenue.csv", "counts.csv", "findings.csv"]

  static func tables(_ world: RunWorld) throws -> [String] { try tables.map { try world.file($0) } }

  static func input(_ world: RunWorld, _ path: String) throws -> [String: Any]? {
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    return (manifest?["inputs"] as? [[String: Any]] ?? []).first { $0["path"] as? String == path }
  }

  @Test func aSummarySalesDayCopiedUnderAnotherNameCountsOnce() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let baseline = try world.run([])
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let before = try Self.tables(world)
    let copy = "exports/apple/reports/S_D_85012345_20261120-copy.txt"
    try FileManager.default.copyItem(
      at: world.directory.appendingPathComponent(Self.salesDay),
      to: world.directory.appendingPathComponent(copy))
    let output = try world.run([])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(try Self.tables(world) == before)
    // The copy sorts first: the original is the one counted as duplicates.
    let original = try Self.input(world, Self.salesDay)
    #expect(original?["accepted"] as? Int == 0)
    #expect((original?["duplicates"] as? Int ?? 0) > 0)
    #expect(
      (output.stdout + output.stderr).contains(
        "\(Self.salesDay): read 3 = accepted 0 + rejected 0 + duplicates 3"), "\(output.stdout)")
  }

  @Test func anEarningsMonthGivenAsCSVAndAsZipCountsOnce() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let baseline = try world.run([])
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let before = try Self.tables(world)
    let folder = world.directory.appendingPathComponent("exports/play/earnings")
    _ = try Tool.run(
      "/usr/bin/env", ["sh", "-c", "cd '\(folder.path)' && zip -q PlayApps_202610.zip PlayApps_202610.csv"],
      input: [])
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var play = root["play"] as? [String: Any] ?? [:]
    play["earnings"] = ["exports/play/earnings/PlayApps_*.csv", "exports/play/earnings/PlayApps_*.zip"]
    root["play"] = play
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)
    let output = try world.run([])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(try Self.tables(world) == before)
    let zip = try Self.input(world, "exports/play/earnings/PlayApps_202610.zip")
    #expect(zip?["accepted"] as? Int == 0)
    #expect((zip?["duplicates"] as? Int ?? 0) > 100)
  }

  @Test func aSecondSalesReportForTheSameDayWithOtherRowsIsRefused() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let text = try String(contentsOf: world.directory.appendingPathComponent(Self.salesDay), encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    var cells = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    cells[7] = "5"
    lines[1] = cells.joined(separator: "\t")
    let other = "exports/apple/reports/S_D_85012345_20261120-b.txt"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(
      to: world.directory.appendingPathComponent(other))
    let output = try world.run([])
    #expect(output.status == 65, "\(output.stderr)")
    let errors = output.stderr.split(separator: "\n").filter { $0.contains("error:") }
    #expect(errors.count == 1, "\(output.stderr)")
    #expect(
      errors.first?.contains(
        "apple_sales: \(other) and \(Self.salesDay) both cover 2026-11-20 with different rows") == true,
      "\(output.stderr)")
    #expect(!FileManager.default.fileExists(atPath: world.out.appendingPathComponent("tieout.csv").path))
  }
}
