import Foundation
import Testing
import StoreReconReports
import StoreReconTestSupport

/// Issue 32: an unsigned App Store line is refused unless the config says the exports are decoded
/// (`appStore.signatures` `require` by default), and a run that accepts such lines says how many on
/// every status line (docs/signatures.md#config).
@Suite(.serialized) struct UnsignedLineTests {
  /// A demo world whose App Store export holds only its signed (JWS) lines and whose config leaves
  /// `appStore.signatures` to its default.
  static func signedWorld() throws -> RunWorld {
    let world = try RunWorld(
      extra: [
        "mail": [
          "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": "smtp://127.0.0.1:1",
          "tls": "none",
        ]
      ], coverDay: false)
    try SignatureRunTests.setAppStore(world, ["signatures": nil])
    let path = Self.export(world)
    let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n")
    let signed = lines.filter { !$0.hasPrefix("{") }
    try Data((signed.joined(separator: "\n") + "\n").utf8).write(to: path)
    return world
  }

  static func export(_ world: RunWorld) -> URL {
    world.directory.appendingPathComponent("exports/apple/transactions.jsonl")
  }

  /// A decoded Production purchase nobody signed: a charge with no entitlement behind it, on the day.
  static let forged =
    #"{"transactionId":"7700000000000001","originalTransactionId":"7700000000000001","bundleId":"com.acme.app","productId":"com.acme.pro.monthly","purchaseDate":1795946400000,"originalPurchaseDate":1795946400000,"expiresDate":1798538400000,"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","environment":"Production","transactionReason":"PURCHASE","price":9990,"currency":"USD","storefront":"USA"}"#

  /// Appends the forged line; returns its line number.
  static func appendForged(_ world: RunWorld) throws -> Int {
    let path = Self.export(world)
    var text = try String(contentsOf: path, encoding: .utf8)
    text += Self.forged + "\n"
    try Data(text.utf8).write(to: path)
    return text.split(separator: "\n").count
  }

  @Test func aDecodedLineAppendedToASignedExportIsRejectedByDefault() throws {
    let world = try Self.signedWorld()
    defer { world.remove() }
    let before = try world.run([])
    #expect(before.status == 0, "\(before.stderr)")
    let revenue = try world.file("revenue.csv")
    let findings = try world.file("findings.csv")
    let statusLine = before.stdout.split(separator: "\n").first.map(String.init) ?? ""
    #expect(!statusLine.contains("unverified"), "\(statusLine)")

    let line = try Self.appendForged(world)
    let after = try world.run([])
    #expect(after.status == 0, "\(after.stderr)")
    // The line is refused with its file, line and reason; the reports are those without it.
    let rejects = try world.file("rejects/exports_apple_transactions.jsonl.csv")
    #expect(
      rejects.contains(
        "exports/apple/transactions.jsonl,\(line),unsigned line (appStore.signatures is require),"),
      "\(rejects)")
    #expect(try world.file("revenue.csv") == revenue)
    #expect(try world.file("findings.csv") == findings)
    let input = try SignatureRunTests.appStoreInput(world)
    #expect(input["signatures"] as? String == "require + test root")
    #expect(input["unverified"] as? Int == 0)
  }

  @Test func aTeamWithDecodedExportsSaysSoAndEveryStatusLineCountsThem() throws {
    let world = try Self.signedWorld()
    defer { world.remove() }
    _ = try Self.appendForged(world)
    try SignatureRunTests.setAppStore(world, ["signatures": "verify"])
    let run = try world.run(["--mail", "--dry-run"])
    #expect(run.status == 0, "\(run.stderr)")
    let input = try SignatureRunTests.appStoreInput(world)
    #expect(input["unverified"] as? Int == 1)
    let phrase = ", 1 App Store line unverified — 2026-11-29"
    let first = try #require(run.stdout.split(separator: "\n").first.map(String.init))
    #expect(first.contains(phrase), "\(first)")
    #expect(TextWrap.firstItem(of: try world.file("summary.txt")).contains(phrase))
    #expect(try world.file("summary.html").contains(phrase))
    let subject = MIMETestDecoding.subject(try world.file("message.eml"))
    #expect(subject.hasSuffix(phrase), "\(subject)")
  }
}
