import Foundation
import Testing
import StoreReconTestSupport

/// `STORERECON_DATABASE_URL` (docs/config.md#environment): the connection string a deployment keeps with
/// its secrets. It replaces `app.database`, `--database` overrides it, and an empty value is no value.
@Suite(.serialized) struct DatabaseVariableTests {
  /// A server nobody listens on: reaching for it is exit 75 with the host named.
  static let unreachable = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=5"

  @Test func theVariableReplacesTheConfigsCSVRowsWithTheDatabase() throws {
    let world = try RunWorld(users: 300)
    defer { world.remove() }
    let files = try world.run([])
    #expect(files.status != 75, "\(files.stderr)")
    let run = try world.run([], environment: ["STORERECON_DATABASE_URL": Self.unreachable])
    #expect(run.status == 75, "\(run.stderr)")
    #expect(run.stderr.contains("127.0.0.1"), "\(run.stderr)")
  }

  @Test func databaseOnTheCommandLineOverridesTheVariable() throws {
    let world = try RunWorld(users: 300)
    defer { world.remove() }
    let run = try world.run(
      ["--database", Self.unreachable],
      environment: ["STORERECON_DATABASE_URL": "postgresql://u:pw@127.0.0.1:2/x"])
    #expect(run.status == 75, "a password in the variable would be refused with 78: \(run.stderr)")
    #expect(run.stderr.contains("127.0.0.1"), "\(run.stderr)")
  }

  @Test func aPasswordInTheVariableIsRefusedAndNotPrinted() throws {
    let world = try RunWorld(users: 300)
    defer { world.remove() }
    let run = try world.run(
      [], environment: ["STORERECON_DATABASE_URL": "postgresql://u:hunter2x@127.0.0.1:2/x"])
    #expect(run.status == 78, "\(run.stderr)")
    #expect(!run.stderr.contains("hunter2x") && !run.stdout.contains("hunter2x"))
  }
}
