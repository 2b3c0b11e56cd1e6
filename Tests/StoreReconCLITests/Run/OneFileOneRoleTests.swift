import Foundation
import Testing
import StoreReconTestSupport

/// One file is one input (issue 32, defect 3): a file named under two keys is a config error naming
/// both (exit 78); a file whose header is another contract's is refused naming the contract it looks
/// like (exit 65) (docs/inputs.md#one-file-one-role).
@Suite(.serialized) struct OneFileOneRoleTests {
  /// Sets `app.<key>` of the world's config to `value`.
  static func setApp(_ world: RunWorld, _ values: [String: String]) throws {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var app = root["app"] as? [String: Any] ?? [:]
    for (k, v) in values { app[k] = v }
    try world.setConfig(["app": app])
  }

  static func expectNoReports(_ world: RunWorld) {
    #expect(!FileManager.default.fileExists(atPath: world.out.appendingPathComponent("findings.csv").path))
  }

  @Test func theCreditsFileAlsoNamedAsTheNotificationLogIsAConfigError() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.setApp(world, ["notifications": "app/credits.csv"])
    let output = try world.run([])
    #expect(output.status == 78, "\(output.stderr)")
    #expect(
      output.stderr.contains(
        "config: app.credits and app.notifications name the same file (app/credits.csv); one file is one input"
      ),
      "\(output.stderr)")
    Self.expectNoReports(world)
  }

  @Test func theEntitlementsFileAlsoNamedAsCredentialsIsAConfigError() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.setApp(world, ["credentials": "app/entitlements.csv"])
    let output = try world.run([])
    #expect(output.status == 78, "\(output.stderr)")
    #expect(
      output.stderr.contains("app.entitlements and app.credentials name the same file"), "\(output.stderr)")
    Self.expectNoReports(world)
  }

  @Test func aLinkToAFileOfAnotherKeyIsTheSameFile() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: world.directory.appendingPathComponent("app/log.csv").path, withDestinationPath: "credits.csv")
    try Self.setApp(world, ["notifications": "app/log.csv"])
    let output = try world.run([])
    #expect(output.status == 78, "\(output.stderr)")
    #expect(
      output.stderr.contains(
        "app.credits and app.notifications name the same file (app/credits.csv and app/log.csv)"),
      "\(output.stderr)")
  }

  @Test func aCopyOfTheCreditsUnderNotificationsIsRefusedNamingTheCredits() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.copyItem(
      at: world.directory.appendingPathComponent("app/credits.csv"),
      to: world.directory.appendingPathComponent("app/credits-copy.csv"))
    try Self.setApp(world, ["notifications": "app/credits-copy.csv"])
    let output = try world.run([])
    #expect(output.status == 65, "\(output.stderr)")
    #expect(
      output.stderr.contains(
        "app/credits-copy.csv: this file looks like the app's credits, not a notification log — list it under app.credits"
      ), "\(output.stderr)")
    Self.expectNoReports(world)
  }
}
