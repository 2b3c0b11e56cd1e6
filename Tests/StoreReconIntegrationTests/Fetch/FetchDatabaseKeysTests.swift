import Foundation
import Testing
import StoreReconTestSupport
import StoreReconDemo

/// `storerecon fetch` with `app.database`: the store keys come from the entitlements, credentials and
/// notifications contract queries, and the customers asked are those the CSV files name; the notification
/// log names the purchases nobody claimed.
@Suite(
  .serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage),
  .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchDatabaseKeysTests {
  /// The history paths one fetch of `world` (config changed by `extra`) asks for.
  static func askedCustomers(_ world: RunWorld, _ server: AppleAPIServer, _ extra: [String: Any]) throws
    -> Set<String>
  {
    server.clearRequests()
    try? FileManager.default.removeItem(at: world.directory.appendingPathComponent("fetched"))
    try world.setConfig(extra.merging(["fetch": server.fetchConfig(into: "fetched")]) { $1 })
    let output = try Binary.run(["fetch", "apple", "--config", world.config.path, "--quiet"])
    #expect(output.status == 0, "\(output.stderr)")
    return Set(
      try server.requests().compactMap { $0["path"] as? String }.filter {
        $0.hasPrefix("/inApps/v2/history/")
      })
  }

  @Test func theDatabaseNamesTheSameCustomersAsTheFiles() throws {
    let world = try RunWorld(users: 300, coverDay: false)
    defer { world.remove() }
    let database = try TestDatabase.create()
    defer { TestDatabase.drop(database) }
    let url = TestDatabase.url(database: database)
    #expect(try Binary.run(["db", "init", "--database", url]).status == 0)
    let load = try Binary.run([
      "db", "load", "--database", url, world.directory.appendingPathComponent("app").path,
    ])
    #expect(load.status == 0, "\(load.stderr)")
    let server = try AppleAPIServer()
    defer { server.stop() }

    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    let app = root["app"] as? [String: Any] ?? [:]
    let fromFiles = try Self.askedCustomers(world, server, [:])
    var fromDatabase = app
    fromDatabase["database"] = url
    let fromRows = try Self.askedCustomers(world, server, ["app": fromDatabase])
    #expect(fromFiles.count > 100)
    #expect(fromRows == fromFiles)
  }

  /// The chain keys of the world's planted `orphaned_charge/unclaimed` App Store findings (truth file).
  static func unclaimedAppStoreCharges(_ world: RunWorld) throws -> [String] {
    let url = world.directory.appendingPathComponent("truth/planted_findings.csv")
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
    return lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
      .filter { $0.count == 5 && $0[0] == "orphaned_charge" && $0[1] == "unclaimed" && $0[2] == "app_store" }
      .map { $0[3] }
  }

  /// The demo plants App Store charges no entitlement or credential claims; only the notification log
  /// names them, so a fetch without the log never asks for their history.
  @Test func theNotificationLogNamesPurchasesNobodyClaimed() throws {
    let world = try RunWorld(users: 300, coverDay: false)
    defer { world.remove() }
    let server = try AppleAPIServer()
    defer { server.stop() }
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var app = root["app"] as? [String: Any] ?? [:]
    #expect(app["notifications"] != nil, "the demo's config names its notification log")
    let withLog = try Self.askedCustomers(world, server, [:])
    app["notifications"] = nil
    let withoutLog = try Self.askedCustomers(world, server, ["app": app])
    #expect(withoutLog.isSubset(of: withLog))
    let unclaimed = try Self.unclaimedAppStoreCharges(world)
    #expect(!unclaimed.isEmpty)
    for key in unclaimed {
      let path = "/inApps/v2/history/" + key
      #expect(withLog.contains(path), "the log names \(key)")
      #expect(!withoutLog.contains(path), "\(key) is known only from the log")
    }
  }
}
