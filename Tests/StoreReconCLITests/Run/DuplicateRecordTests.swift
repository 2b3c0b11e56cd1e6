import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Store records read in more than one file count once, as a user meets it: the same reports as the
/// clean world, `duplicates.csv`, the manifest's counts and the summary's line.
@Suite(.serialized) struct DuplicateRecordTests {
  static func manifestInputs(_ world: RunWorld) throws -> [[String: Any]] {
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    return manifest?["inputs"] as? [[String: Any]] ?? []
  }

  static func copy(_ world: RunWorld, _ from: String, to: String, lines: Int? = nil) throws {
    let text = try String(contentsOf: world.directory.appendingPathComponent(from), encoding: .utf8)
    let kept = lines.map { n in text.split(separator: "\n").prefix(n).joined(separator: "\n") + "\n" } ?? text
    try Data(kept.utf8).write(to: world.directory.appendingPathComponent(to))
  }

  /// A decoded production App Store line bought before 2026-11-20, neither revoked nor upgraded.
  static func plainAppleLine(_ world: RunWorld) throws -> [String: Any] {
    let text = try String(
      contentsOf: world.directory.appendingPathComponent("exports/apple/transactions.jsonl"), encoding: .utf8)
    let before = CivilDate(year: 2026, month: 11, day: 20).startUTC.ms
    for line in text.split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["environment"] as? String == "Production", object["revocationDate"] == nil,
        object["isUpgraded"] == nil, (object["price"] as? Int ?? 0) > 0,
        let at = object["purchaseDate"] as? Int, Int64(at) < before
      else { continue }
      return object
    }
    throw CocoaError(.fileReadCorruptFile)
  }

  static func line(_ object: [String: Any]) throws -> String {
    String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }

  @Test func filesAndLinesCopiedIntoOtherFilesCountOnce() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let baseline = try world.run([])
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let reports = try ["revenue.csv", "counts.csv", "findings.csv", "tieout.csv"].map { try world.file($0) }
    #expect(
      try world.file("duplicates.csv")
        == "kind,store,record,id,kept_file,kept_line,dropped_file,dropped_line\n")

    try Self.copy(world, "exports/apple/transactions.jsonl", to: "exports/apple/transactions-copy.jsonl")
    try Self.copy(
      world, "exports/play/salesreport_202611.csv", to: "exports/play/salesreport_202611-copy.csv")
    try Self.copy(
      world, "exports/play/subscriptions.jsonl", to: "exports/play/subscriptions-copy.jsonl", lines: 60)
    let copied = try world.run([])
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(
      try ["revenue.csv", "counts.csv", "findings.csv", "tieout.csv"].map { try world.file($0) } == reports)

    let inputs = try Self.manifestInputs(world)
    var dropped = 0
    for input in inputs {
      let n = { (key: String) in input[key] as? Int ?? 0 }
      #expect(n("read") == n("accepted") + n("rejected") + n("duplicates") + n("superseded"), "\(input)")
      dropped += n("duplicates") + n("superseded")
    }
    let rows = try world.file("duplicates.csv").split(separator: "\n").dropFirst()
    #expect(dropped > 900)
    #expect(rows.count == dropped)
    // The copy sorts first, so the original's lines are the ones counted again.
    let original = inputs.first { $0["path"] as? String == "exports/apple/transactions.jsonl" }
    #expect(original?["accepted"] as? Int == 0)
    #expect(rows.contains { $0.hasPrefix("duplicate,play,resource,") })
    // A sales-report row copied: the same line in both files, named.
    #expect(
      rows.contains { row in
        let f = row.split(separator: ",")
        return f.count == 8 && f[0] == "duplicate" && f[2] == "charge" && f[1] == "play" && f[5] != "0"
          && f[5] == f[7]
      })
    #expect(
      rows.contains {
        $0.hasPrefix("duplicate,app_store,charge,") && $0.contains(",exports/apple/transactions-copy.jsonl,")
          && $0.contains(",exports/apple/transactions.jsonl,")
      })
    #expect(try world.file("summary.txt").contains("Read twice: \(dropped) store records counted once"))
  }

  @Test func aLaterStateSupersedesAndOtherContentIsAConflict() throws {
    let world = try RunWorld()
    defer { world.remove() }
    var object = try Self.plainAppleLine(world)
    let id = try #require(object["transactionId"] as? String)
    let at = try #require(object["purchaseDate"] as? Int)
    let baseline = try world.run([])
    #expect(baseline.status == 0)
    let revenue = try world.file("revenue.csv")

    // The same transaction, revoked a day later: it supersedes the first line, and the refund counts.
    object["revocationDate"] = at + 86_400_000
    object["revocationType"] = "REFUND_FULL"
    object["revocationReason"] = 0
    try Data((try Self.line(object) + "\n").utf8).write(
      to: world.directory.appendingPathComponent("exports/apple/transactions_late.jsonl"))
    let late = try world.run([])
    #expect(late.status == 0, "\(late.stderr)")
    #expect(try world.file("revenue.csv") != revenue)
    let rows = try world.file("duplicates.csv").split(separator: "\n").dropFirst()
    #expect(rows.count == 1)
    #expect(
      rows.first?.hasPrefix("superseded,app_store,charge,\(id),exports/apple/transactions_late.jsonl,1,")
        == true)
    #expect(rows.first?.contains(",exports/apple/transactions.jsonl,") == true)

    // The same transaction at another price, no later state: rejected, both lines named.
    object["price"] = (object["price"] as? Int ?? 0) + 1000
    try Data((try Self.line(object) + "\n").utf8).write(
      to: world.directory.appendingPathComponent("exports/apple/transactions_more.jsonl"))
    let conflict = try world.run([])
    #expect(conflict.status == 0, "\(conflict.stderr)")
    let more = try Self.manifestInputs(world).first {
      $0["path"] as? String == "exports/apple/transactions_more.jsonl"
    }
    #expect(more?["read"] as? Int == 1)
    #expect(more?["accepted"] as? Int == 0)
    #expect(more?["rejected"] as? Int == 1)
    let rejects = try world.file("rejects/exports_apple_transactions_more.jsonl.csv")
    #expect(
      rejects.contains(
        "exports/apple/transactions_more.jsonl,1,conflicting duplicate: app_store charge \(id) was read at exports/apple/transactions_late.jsonl line 1"
      ), "\(rejects)")
    #expect(try world.file("duplicates.csv").contains("conflict,app_store,charge,\(id),"))
  }
}

extension DuplicateRecordTests {
  /// The same purchase once without its price (an unpriced export) and once with it: the priced line
  /// supersedes the unpriced one whichever file comes first, and revenue keeps its money.
  @Test func aPricedLineSupersedesTheSamePurchaseUnpriced() throws {
    let world = try RunWorld()
    defer { world.remove() }
    var object = try Self.plainAppleLine(world)
    let id = try #require(object["transactionId"] as? String)
    _ = try world.run([])
    let revenue = try world.file("revenue.csv")
    object["price"] = nil
    object["currency"] = nil
    // "transactions.jsonl" sorts before "transactions_unpriced.jsonl": the priced line is read first.
    try Data((try Self.line(object) + "\n").utf8).write(
      to: world.directory.appendingPathComponent("exports/apple/transactions_unpriced.jsonl"))
    let run = try world.run([])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try world.file("revenue.csv") == revenue)
    let rows = try world.file("duplicates.csv").split(separator: "\n").dropFirst()
    #expect(rows.count == 1)
    #expect(
      rows.first?.hasPrefix("superseded,app_store,charge,\(id),exports/apple/transactions.jsonl,") == true,
      "\(rows)")
    let unpriced = try Self.manifestInputs(world).first {
      $0["path"] as? String == "exports/apple/transactions_unpriced.jsonl"
    }
    #expect(unpriced?["rejected"] as? Int == 0)
  }
}
