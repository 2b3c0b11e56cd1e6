import Foundation
import Testing
import StoreReconTestSupport

/// One row per `credit_id` and `entitlement_id` as a user runs it (issue 32, docs/contracts.md#one-row-per-id):
/// the same row again counts once, a row repeating an id with other content is rejected naming the row
/// kept, and an app-row file whose header names a column twice is refused naming both.
@Suite struct AppRowRepeatTests {
  static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  /// The manifest's entry for the input of `role`.
  static func input(_ world: RunWorld, _ role: String) throws -> [String: Any] {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    return (manifest?["inputs"] as? [[String: Any]] ?? []).first { $0["role"] as? String == role } ?? [:]
  }

  /// Appends `rows` to the world's app file `name`.
  static func append(_ world: RunWorld, _ name: String, _ rows: [String]) throws {
    let url = world.directory.appendingPathComponent("app/\(name)")
    let text = try String(contentsOf: url, encoding: .utf8)
    try Data((text + rows.map { $0 + "\n" }.joined()).utf8).write(to: url)
  }

  @Test func aRepeatedIdCountsOnceOrIsRejectedNamingTheFirstLine() throws {
    let world = try RunWorld(users: 300, coverDay: false)
    defer { world.remove() }
    let before = try world.run([])
    #expect(before.status == 0, "\(before.stderr)")
    let findings = try world.file("findings.csv")
    let credits = Self.lines(
      try String(contentsOf: world.directory.appendingPathComponent("app/credits.csv"), encoding: .utf8))
    let entitlements = Self.lines(
      try String(contentsOf: world.directory.appendingPathComponent("app/entitlements.csv"), encoding: .utf8))
    // Credit row 1 again as it is (a double export), credit row 2 again with another quantity; entitlement
    // row 1 again as it is, row 2 again with another status.
    let otherQuantity = credits[2].split(separator: ",", omittingEmptySubsequences: false).enumerated()
      .map { $0.offset == 5 ? "7" : String($0.element) }.joined(separator: ",")
    try Self.append(world, "credits.csv", [credits[1], otherQuantity])
    let otherStatus = entitlements[2].replacingOccurrences(of: ",active,", with: ",revoked,")
    #expect(otherStatus != entitlements[2])
    try Self.append(world, "entitlements.csv", [entitlements[1], otherStatus])
    let after = try world.run([])
    #expect(after.status == 0, "\(after.stderr)")
    // No false credited_twice, no other finding: the reports are the run's before the rows were repeated.
    #expect(try world.file("findings.csv") == findings)
    let creditId = String(credits[2].prefix { $0 != "," })
    let entitlementId = String(entitlements[2].prefix { $0 != "," })
    let creditRejects = try world.file("rejects/app_credits.csv.csv")
    #expect(
      creditRejects.contains(
        "app/credits.csv,\(credits.count + 2),repeated credit_id '\(creditId)': first read at app/credits.csv "
          + "line 3 with another quantity (that one is kept)"), "\(creditRejects)")
    let entitlementRejects = try world.file("rejects/app_entitlements.csv.csv")
    #expect(
      entitlementRejects.contains(
        "app/entitlements.csv,\(entitlements.count + 2),repeated entitlement_id '\(entitlementId)': first read "
          + "at app/entitlements.csv line 3 with another status (that one is kept)"), "\(entitlementRejects)")
    for role in ["app.credits", "app.entitlements"] {
      let input = try Self.input(world, role)
      let read = input["read"] as? Int ?? 0
      let accepted = input["accepted"] as? Int ?? 0
      let rejected = input["rejected"] as? Int ?? 0
      let duplicates = input["duplicates"] as? Int ?? 0
      #expect(duplicates == 1, "\(role): \(input)")
      #expect(read == accepted + rejected + duplicates, "\(role): \(input)")
    }
    #expect(after.stdout.contains("app.credits app/credits.csv: read \(credits.count + 1) = accepted"))
  }

  @Test func anAppRowFileNamingAColumnTwiceIsRefusedNamingBoth() throws {
    let world = try RunWorld(users: 300, coverDay: false)
    defer { world.remove() }
    for (name, column) in [("entitlements.csv", "status"), ("credits.csv", "Credit_ID")] {
      let url = world.directory.appendingPathComponent("app/\(name)")
      let original = try String(contentsOf: url, encoding: .utf8)
      var rows = Self.lines(original)
      rows[0] += ",\(column)"
      for i in rows.indices.dropFirst() { rows[i] += ",x" }
      try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: url)
      let run = try world.run([])
      #expect(run.status == 65, "\(name): \(run.stderr)")
      let position = rows[0].split(separator: ",").count
      #expect(
        run.stderr.contains(
          "app/\(name): malformed file: the header row (line 1) names column '\(column)' twice (columns "),
        "\(run.stderr)")
      #expect(
        run.stderr.contains(" and \(position)): which one holds the data cannot be told"), "\(run.stderr)")
      try Data(original.utf8).write(to: url)
    }
  }
}
