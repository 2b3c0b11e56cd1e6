import Foundation
import Testing
import StoreReconTestSupport

/// The snapshot of the App Store files' parse (docs/snapshot.md): a run helped by the last run's
/// snapshot writes exactly the reports of a `--from-scratch` run, whatever changed in between.
@Suite struct SnapshotRunTests {
  static let transactions = "exports/apple/transactions.jsonl"

  /// `storerecon run` into `out` (beside the world's default `out`, so under the same report root).
  static func run(_ world: RunWorld, out: String, _ extra: [String] = []) throws -> Binary.Output {
    let output = try Binary.run(
      [
        "run", "--config", world.config.path, "--date", "2026-11-29", "--no-history", "--allow-damaged",
        "--out", world.directory.appendingPathComponent(out).path,
      ] + extra)
    #expect(output.status == 0 || output.status == 1, "\(output.stderr)")
    return output
  }

  /// The snapshot-helped run and a `--from-scratch` run after it write the same reports; returns the
  /// helped run's stderr.
  @discardableResult
  static func sameAsFromScratch(_ world: RunWorld, _ comment: Comment) throws -> String {
    let helped = try run(world, out: "helped")
    _ = try run(world, out: "scratch", ["--from-scratch"])
    try expectSameReports(in: world.directory, comment)
    return helped.stderr
  }

  /// The runs into `helped` and `scratch` under `directory` wrote the same files, byte for byte (the
  /// manifest's timings aside), findings.csv and revenue.csv among them.
  static func expectSameReports(in directory: URL, _ comment: Comment) throws {
    let a = try RunWorld.reports(under: directory.appendingPathComponent("helped"))
    let b = try RunWorld.reports(under: directory.appendingPathComponent("scratch"))
    #expect(a.keys.contains("/findings.csv") && a.keys.contains("/revenue.csv"))
    #expect(a.keys.sorted() == b.keys.sorted(), comment)
    for (name, data) in a where b[name] != data {
      Issue.record("\(comment): \(name) differs from the --from-scratch run's")
    }
  }

  static func lines(_ world: RunWorld, _ file: String = transactions) throws -> [String] {
    let text = try String(contentsOf: world.directory.appendingPathComponent(file), encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  static func write(_ world: RunWorld, _ lines: [String], _ file: String = transactions) throws {
    try lines.joined(separator: "\n").write(
      to: world.directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
  }

  /// An old production purchase line of the world (decoded JSON), by its index.
  static func oldPurchase(_ lines: [String], skip: Int = 0) throws -> Int {
    let found = lines.indices.filter {
      lines[$0].hasPrefix("{") && lines[$0].contains("\"Production\"") && !lines[$0].contains("revocation")
        && lines[$0].contains("\"purchaseDate\":17")
    }
    return try #require(found.dropFirst(skip).first)
  }

  @Test func aSecondRunMergesTheSnapshotAndWritesTheSameReports() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let first = try Self.run(world, out: "first")
    #expect(
      first.stderr.contains("0 App Store files merged without parsing, 1 parsed in full (1: no snapshot yet)")
    )
    let stderr = try Self.sameAsFromScratch(world, "unchanged inputs")
    #expect(stderr.contains("snapshot: 1 App Store file merged without parsing, 0 parsed in full"))
    // Nothing verified (the notification history's JWS lines are all known to the record).
    #expect(stderr.contains("storerecon: signatures: 0 verified"))
    #expect(
      FileManager.default.fileExists(atPath: world.directory.appendingPathComponent("parsed-inputs").path))
    // A later report date reads the same lines the same way; an earlier one parses again.
    let later = try Binary.run([
      "run", "--config", world.config.path, "--date", "2026-11-30", "--no-history", "--allow-damaged",
      "--allow-missing", "--out", world.directory.appendingPathComponent("later").path,
    ])
    #expect(later.stderr.contains("1 App Store file merged without parsing"), "\(later.stderr)")
    let earlier = try Binary.run([
      "run", "--config", world.config.path, "--date", "2026-11-28", "--no-history", "--allow-damaged",
      "--out", world.directory.appendingPathComponent("earlier").path,
    ])
    #expect(earlier.stderr.contains("1 parsed in full (1: the report date moved back"), "\(earlier.stderr)")
  }

  @Test func refundsUpgradesRemovalsAndNewFilesArrivingLaterAreReadAsFromScratch() throws {
    let world = try RunWorld()
    defer { world.remove() }
    _ = try Self.run(world, out: "first")
    // A refund of an old transaction: its line rewritten with a revocation.
    var lines = try Self.lines(world)
    let refunded = try Self.oldPurchase(lines)
    lines[refunded] =
      "{\"revocationDate\":1764000000000,\"revocationReason\":0," + lines[refunded].dropFirst()
    try Self.write(world, lines)
    var stderr = try Self.sameAsFromScratch(world, "an old line refunded")
    #expect(stderr.contains("1 parsed in full (1: the file changed)"), "\(stderr)")
    // An upgrade of another old one.
    lines = try Self.lines(world)
    let upgraded = try Self.oldPurchase(lines, skip: 1)
    lines[upgraded] = "{\"isUpgraded\":true," + lines[upgraded].dropFirst()
    try Self.write(world, lines)
    try Self.sameAsFromScratch(world, "an old line upgraded")
    // A past line removed.
    lines = try Self.lines(world)
    lines.remove(at: try Self.oldPurchase(lines, skip: 2))
    try Self.write(world, lines)
    try Self.sameAsFromScratch(world, "an old line removed")
    // A line appended (a new day's renewal of the refunded chain's product, in another chain).
    lines = try Self.lines(world)
    if lines.last == "" { lines.removeLast() }
    let renewal = lines[refunded].replacingOccurrences(
      of: "\"transactionId\":\"", with: "\"transactionId\":\"77")
    lines.append(renewal)
    try Self.write(world, lines + [""])
    try Self.sameAsFromScratch(world, "a line appended")
    // A file added (the pattern is transactions*.jsonl), then removed again.
    let added = "exports/apple/transactions-2026-11-29.jsonl"
    try Self.write(
      world, [lines[refunded].replacingOccurrences(of: "\"Production\"", with: "\"Sandbox\""), ""], added)
    stderr = try Self.sameAsFromScratch(world, "a file added")
    #expect(stderr.contains("1 App Store file merged without parsing, 1 parsed in full"), "\(stderr)")
    let snapshots = world.directory.appendingPathComponent("parsed-inputs")
    #expect(try FileManager.default.contentsOfDirectory(atPath: snapshots.path).count == 2)
    try FileManager.default.removeItem(at: world.directory.appendingPathComponent(added))
    stderr = try Self.sameAsFromScratch(world, "a file removed")
    #expect(stderr.contains("1 App Store file merged without parsing, 0 parsed in full"), "\(stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: snapshots.path).count == 1)
  }

  @Test func aDamagedSnapshotIsRebuiltAndAForgedLineStaysRejected() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // A forged line: a JWS line whose signature was altered.
    var lines = try Self.lines(world)
    let index = try #require(lines.firstIndex { $0.hasPrefix("ey") })
    var characters = Array(lines[index])
    let at = try #require(characters.lastIndex(of: ".")) + 10
    characters[at] = characters[at] == "A" ? "B" : "A"
    lines[index] = String(characters)
    try Self.write(world, lines)
    _ = try Self.run(world, out: "first")
    let rejects = try String(
      contentsOf: world.directory.appendingPathComponent(
        "first/rejects/exports_apple_transactions.jsonl.csv"),
      encoding: .utf8)
    #expect(rejects.contains(",signature,"))
    var stderr = try Self.sameAsFromScratch(world, "a forged line")
    #expect(stderr.contains("1 App Store file merged without parsing"))
    let again = try String(
      contentsOf: world.directory.appendingPathComponent(
        "helped/rejects/exports_apple_transactions.jsonl.csv"),
      encoding: .utf8)
    #expect(again == rejects)
    // The snapshot damaged: not trusted, the file parsed in full, the snapshot written again.
    let folder = world.directory.appendingPathComponent("parsed-inputs")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
    let file = folder.appendingPathComponent(name)
    var bytes = [UInt8](try Data(contentsOf: file))
    bytes[bytes.count / 2] ^= 1
    try Data(bytes).write(to: file)
    stderr = try Self.sameAsFromScratch(world, "a damaged snapshot")
    #expect(stderr.contains("1 parsed in full (1: the snapshot's check (HMAC) does not match"), "\(stderr)")
    stderr = try Self.run(world, out: "helped").stderr
    #expect(stderr.contains("1 App Store file merged without parsing"))
    // A damaged record of verified signatures: the snapshots under its key are not trusted either.
    let record = world.directory.appendingPathComponent("verified-jws.bin")
    var recordBytes = [UInt8](try Data(contentsOf: record))
    recordBytes[recordBytes.count / 2] ^= 1
    try Data(recordBytes).write(to: record)
    stderr = try Self.run(world, out: "helped").stderr
    #expect(
      stderr.contains("1 parsed in full (1: the record of verified signatures is not trusted)"), "\(stderr)")
  }
}
