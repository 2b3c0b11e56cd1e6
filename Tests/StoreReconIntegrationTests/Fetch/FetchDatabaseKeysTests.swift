import Foundation
import Testing
import StoreReconTestSupport
import StoreReconDemo

/// `storerecon fetch` with `app.database`: the store keys come from the entitlements and credentials
/// contract queries, and the customers asked are those the CSV files name.
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
}
