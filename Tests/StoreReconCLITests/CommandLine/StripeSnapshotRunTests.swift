import Foundation
import Testing
import StoreReconTestSupport

/// The snapshot of Stripe's files (docs/snapshot.md#stripe): a run helped by the last run's snapshots
/// writes exactly the reports of a `--from-scratch` run, whatever changed in between.
@Suite struct StripeSnapshotRunTests {
  static let objects = "exports/stripe/objects.jsonl"

  /// The Stripe world with signatures checked (the snapshots are kept under the key of the record of
  /// verified signatures, which a run with `signatures: off` does not keep).
  static func world() throws -> StripeWorld {
    let world = try StripeWorld(shape: .basil)
    let config = try String(contentsOf: world.config, encoding: .utf8)
    #expect(config.contains(#", "signatures": "off""#))
    try world.write("storerecon.json", config.replacingOccurrences(of: #", "signatures": "off""#, with: ""))
    return world
  }

  static func run(_ world: StripeWorld, out: String, _ extra: [String] = []) throws -> Binary.Output {
    let output = try Binary.run(
      [
        "run", "--config", world.config.path, "--date", "2026-11-29", "--no-history",
        "--out", world.directory.appendingPathComponent(out).path,
      ] + extra)
    #expect([0, 1, 3].contains(output.status), "\(output.stderr)")
    return output
  }

  /// The helped run and a `--from-scratch` run after it write the same reports; the helped run's stderr.
  @discardableResult
  static func sameAsFromScratch(_ world: StripeWorld, _ comment: Comment) throws -> String {
    let helped = try run(world, out: "helped")
    _ = try run(world, out: "scratch", ["--from-scratch"])
    try SnapshotRunTests.expectSameReports(in: world.directory, comment)
    return helped.stderr
  }

  static func lines(_ world: StripeWorld, _ file: String = objects) throws -> [String] {
    let text = try String(contentsOf: world.directory.appendingPathComponent(file), encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
  }

  @Test func aSecondRunReplaysStripesFilesAndWritesTheSameReports() throws {
    let world = try Self.world()
    defer { world.remove() }
    let first = try Self.run(world, out: "first")
    #expect(
      first.stderr.contains(
        "snapshot: 0 Stripe files merged without parsing, 1 parsed in full (1: no snapshot yet)"),
      "\(first.stderr)")
    var stderr = try Self.sameAsFromScratch(world, "unchanged inputs")
    #expect(stderr.contains("snapshot: 1 Stripe file merged without parsing, 0 parsed in full"), "\(stderr)")
    // Nothing changed: the whole read is taken from its snapshot (docs/snapshot.md#the-whole-stripe-read).
    #expect(stderr.contains("snapshot: the Stripe read (1 file unchanged) taken whole from "), "\(stderr)")
    // The same counts as the first run's: the replay reads the file as the parse did.
    let counts = first.stderr.split(separator: "\n").first { $0.contains("read stripe.objects") }
    let counted = try #require(counts)
    #expect(stderr.contains(counted))

    // A new file with a later state of a subscription (an event), and a line of another type.
    var lines = try Self.lines(world)
    let subscription = try #require(lines.first { $0.contains(#""object":"subscription""#) })
    let later = subscription.replacingOccurrences(of: #""status":"active""#, with: #""status":"canceled""#)
    let event =
      #"{"object":"event","id":"evt_1LateStateOfTheSubscription","type":"customer.subscription.updated","created":\#(StripeWorld.at(11, 20)),"data":{"object":\#(later)}}"#
    try world.write(
      "exports/stripe/events-2026-11-20.jsonl", event + "\n" + #"{"object":"payout","id":"po_1"}"# + "\n")
    stderr = try Self.sameAsFromScratch(world, "a file added")
    #expect(
      stderr.contains(
        "snapshot: 1 Stripe file merged without parsing, 1 parsed in full (1: no snapshot yet)"),
      "\(stderr)")
    #expect(stderr.contains("snapshot: the Stripe read built again ("), "\(stderr)")

    // A line appended to the first file (a rejected one), then the older file edited in place.
    lines.append(#"{"object":"charge","id":"ch_1Broken","currency":"usd"}"#)
    try world.write(Self.objects, lines.joined(separator: "\n") + "\n")
    stderr = try Self.sameAsFromScratch(world, "a line appended")
    #expect(stderr.contains("1 Stripe file merged without parsing, 1 parsed in full (1: the file changed)"))
    lines.removeFirst()
    try world.write(Self.objects, lines.joined(separator: "\n") + "\n")
    try Self.sameAsFromScratch(world, "a past line removed")

    // A damaged snapshot: not trusted, the file parsed in full, the snapshot written again.
    let folder = world.directory.appendingPathComponent("parsed-inputs")
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      let file = folder.appendingPathComponent(name)
      var bytes = [UInt8](try Data(contentsOf: file))
      bytes[bytes.count / 2] ^= 1
      try Data(bytes).write(to: file)
    }
    stderr = try Self.sameAsFromScratch(world, "damaged snapshots")
    #expect(
      stderr.contains(
        "0 Stripe files merged without parsing, 2 parsed in full (2: the snapshot's check (HMAC)"))
    stderr = try Self.run(world, out: "again").stderr
    #expect(stderr.contains("snapshot: 2 Stripe files merged without parsing, 0 parsed in full"), "\(stderr)")
    // The file gone: its snapshot goes with it.
    try FileManager.default.removeItem(
      at: world.directory.appendingPathComponent("exports/stripe/events-2026-11-20.jsonl"))
    try Self.sameAsFromScratch(world, "a file removed")
    // The file's own, the whole read's and the App Store file's.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
  }
}
