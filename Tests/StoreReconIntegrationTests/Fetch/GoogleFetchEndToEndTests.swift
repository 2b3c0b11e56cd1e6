import Foundation
import Testing
import StoreReconTestSupport

/// The "done when" for Google Play: a demo world's Play subscriptions, voided purchases and
/// sales and earnings reports served by the loopback server, `storerecon fetch google`, then `storerecon
/// run` with the fetched files as the Play inputs: findings.csv and revenue.csv byte-identical to the
/// run on the world's own files.
@Suite(
  .serialized, .enabled(if: GoogleAPIServer.available, GoogleAPIServer.unavailable),
  .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"), "no /usr/bin/zip: skipped"))
struct GoogleFetchEndToEndTests {
  static let reports = ["findings.csv", "revenue.csv"]

  @Test func aRunOnFetchedFilesMatchesTheRunOnTheWorldsFiles() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let baseline = try world.run([])
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let expected = try Self.reports.map { try world.file($0) }

    let google = try GoogleFetchWorld(directory: world.directory)
    defer { google.server.stop() }
    let served = try Self.serve(world.directory.appendingPathComponent("exports/play"), on: google.server)
    try world.setConfig(["fetch": google.fetchObject()])
    let fetch = try Binary.run([
      "fetch", "google", "--config", world.config.path, "--date", "2026-11-29",
    ])
    #expect(fetch.status == 0, "\(fetch.stderr)")
    #expect(fetch.stdout.hasPrefix("google: "), "\(fetch.stdout)")
    // Every resource fetched is the one served, with its token added; those not fetched are the ones
    // nothing names (no app row, no link, no void, no sales-report order: sandbox and pending purchases).
    let fetchedResources = google.lines("play/subscriptions.jsonl")
    #expect(fetchedResources.count > served.subscriptions.count * 9 / 10, "\(fetch.stderr)")
    for var resource in fetchedResources {
      let token = resource.removeValue(forKey: "purchaseToken") as? String ?? ""
      #expect(NSDictionary(dictionary: resource).isEqual(served.subscriptions[token]), "\(token)")
    }
    #expect(google.lines("play/voided.jsonl").count == served.voided)

    try world.setConfig([
      "play": [
        "sales": ["fetched/play/sales/salesreport_*.zip"],
        "subscriptions": ["fetched/play/subscriptions.jsonl"],
        "voided": ["fetched/play/voided.jsonl"],
        "earnings": ["fetched/play/earnings/earnings_*.zip"],
      ]
    ])
    try FileManager.default.removeItem(at: world.out)
    let fetched = try world.run([])
    #expect(fetched.status == 0, "\(fetched.stderr)")
    for (name, text) in Swift.zip(Self.reports, expected) {
      #expect(try world.file(name) == text, "\(name) differs after the fetch")
    }
    #expect(google.leaks(in: [fetch.stdout, fetch.stderr, fetched.stdout, fetched.stderr]).isEmpty)
  }

  /// What the server was given: resources and voids that parse (a damaged line of the world's files is
  /// what a store never sends), and each month's sales and earnings report zipped as Google stores them.
  static func serve(_ play: URL, on server: GoogleAPIServer) throws -> (
    subscriptions: [String: [String: Any]], voided: Int
  ) {
    var resources: [String: [String: Any]] = [:]
    for var resource in try objects(play.appendingPathComponent("subscriptions.jsonl")) {
      guard let token = resource.removeValue(forKey: "purchaseToken") as? String else { continue }
      resources[token] = resource
    }
    try server.write("subscriptions.json", json: resources)
    // The Orders API knows each subscription's first order (the line items' order id without `..N`).
    var orders: [String: String] = [:]
    for (token, resource) in resources {
      for case let item as [String: Any] in resource["lineItems"] as? [Any] ?? [] {
        guard let order = item["latestSuccessfulOrderId"] as? String else { continue }
        orders[order.components(separatedBy: "..")[0]] = token
      }
    }
    try server.write("orders.json", json: orders)
    let voided = try objects(play.appendingPathComponent("voided.jsonl")).filter { $0["orderId"] is String }
    try server.write("voided.json", json: voided)
    let scratch = server.directory.appendingPathComponent("zips")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: play.path)
    where name.hasPrefix("salesreport_") {
      let month = name.dropFirst("salesreport_".count).prefix(6)
      try server.putObject(
        "sales/salesreport_\(month).zip", zipped(play.appendingPathComponent(name), in: scratch))
    }
    let earnings = play.appendingPathComponent("earnings")
    for name in try FileManager.default.contentsOfDirectory(atPath: earnings.path)
    where name.hasPrefix("PlayApps_") {
      let month = name.dropFirst("PlayApps_".count).prefix(6)
      try server.putObject(
        "earnings/earnings_\(month)_0123456789-0.zip",
        zipped(earnings.appendingPathComponent(name), in: scratch))
    }
    return (resources, Set(voided.compactMap { $0["orderId"] as? String }).count)
  }

  /// The lines of a JSON Lines file that are JSON objects.
  static func objects(_ file: URL) throws -> [[String: Any]] {
    try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// `file` alone in a zip (`zip -j -X`), as bytes.
  static func zipped(_ file: URL, in scratch: URL) throws -> Data {
    let out = scratch.appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".zip")
    try? FileManager.default.removeItem(at: out)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
    process.arguments = ["-q", "-j", "-X", out.path, file.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return try Data(contentsOf: out)
  }
}
