import Foundation
import Testing
import StoreReconTestSupport

/// The App Store Connect reports of `storerecon fetch apple`: each day of the backfill window not fetched
/// yet (a 404 is a day without a report, asked again next time), gzip bodies checked and written under
/// the names the run's globs read.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchReportTests {
  static let vendor = "85012345"
  static let sales = "Provider\tProvider Country\tSKU\tUnits\nAPPLE\tUS\tcom.acme.pro.monthly\t1\n"

  static func gunzip(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-dc", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test func fetchesEachMissingDayOnceAndRetriesDaysWithoutAReport() throws {
    let server = try AppleAPIServer { fixtures in
      let reports = fixtures.appendingPathComponent("reports")
      try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
      try Self.sales.write(
        to: reports.appendingPathComponent("SALES_SUMMARY_\(Self.vendor)_2026-11-27"), atomically: true,
        encoding: .utf8)
      try "Event Date\tUnits\n2026-11-28\t1\n".write(
        to: reports.appendingPathComponent("SUBSCRIBER_DETAILED_\(Self.vendor)_2026-11-28"), atomically: true,
        encoding: .utf8)
      try "Start Date\tEnd Date\tQuantity\n10/05/2026\t11/01/2026\t1\n".write(
        to: reports.appendingPathComponent("FINANCIAL_ZZ_\(Self.vendor)_2026-10"), atomically: true,
        encoding: .utf8)
    }
    defer { server.stop() }
    let folder = try FetchAppleTests.configFolder(server, keys: [], vendor: Self.vendor, backfillDays: 3)
    defer { try? FileManager.default.removeItem(at: folder) }

    let first = try FetchAppleTests.fetch(folder, ["--date", "2026-11-28"])
    #expect(first.status == 0, "\(first.stderr)")
    let out = folder.appendingPathComponent("fetched/apple/reports")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path))?.sorted() ?? []
    #expect(
      names == [
        "Financial_\(Self.vendor)_ZZ_202610.txt.gz", "S_D_\(Self.vendor)_20261127.txt.gz",
        "Subscriber_\(Self.vendor)_20261128.txt.gz",
      ])
    #expect(
      try Self.gunzip(out.appendingPathComponent("S_D_\(Self.vendor)_20261127.txt.gz").path) == Self.sales)
    let connect = try server.requests().filter { ($0["path"] as? String ?? "").hasPrefix("/v1/") }
    #expect(connect.count == 3 + 3 + 1, "three days of two reports, one month")
    let query = connect.first.map { $0["query"] as? String ?? "" } ?? ""
    #expect(
      query.contains("filter%5BreportType%5D=SALES")
        && query.contains("filter%5BvendorNumber%5D=\(Self.vendor)"))

    // The days that had no report are asked again, and only they; one has its report now.
    try Self.sales.write(
      to: server.fixtures.appendingPathComponent("reports/SALES_SUMMARY_\(Self.vendor)_2026-11-28"),
      atomically: true,
      encoding: .utf8)
    server.clearRequests()
    let second = try FetchAppleTests.fetch(folder, ["--date", "2026-11-28", "--quiet"])
    #expect(second.status == 0, "\(second.stderr)")
    let again = try server.requests().filter { ($0["path"] as? String ?? "").hasPrefix("/v1/") }
    #expect(again.count == 2 + 2, "sales 26th and 28th, subscriber 26th and 27th")
    #expect(
      FileManager.default.fileExists(
        atPath: out.appendingPathComponent("S_D_\(Self.vendor)_20261128.txt.gz").path))
  }
}
