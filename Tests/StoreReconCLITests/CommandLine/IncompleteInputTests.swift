import Foundation
import Testing
import StoreReconReports
import StoreReconTestSupport

/// An input that cannot be read as a whole: the rules that need it do not run (no false findings), the
/// status says which answer is missing, and an INCOMPLETE run is not mailed without --mail-incomplete.
@Suite(.serialized) struct IncompleteInputTests {
  static var dryMail: [String: Any] {
    [
      "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": "smtp://127.0.0.1:1",
      "tls": "none",
    ]
  }

  /// findings.csv's `kind` and `store` per row (found by the header's names).
  static func findings(_ world: RunWorld) throws -> [(kind: String, store: String)] {
    let lines = try world.file("findings.csv").split(separator: "\n")
    let header = lines.first?.split(separator: ",").map(String.init) ?? []
    guard let kind = header.firstIndex(of: "kind"), let store = header.firstIndex(of: "store") else {
      return []
    }
    return lines.dropFirst().map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return (fields[kind], fields[store])
    }
  }

  /// The kinds in findings.csv.
  static func kinds(_ world: RunWorld) throws -> Set<String> { Set(try findings(world).map(\.kind)) }

  static func firstLine(_ world: RunWorld) throws -> String {
    TextWrap.firstItem(of: try world.file("summary.txt"))
  }

  @Test func unreadableEntitlementsSkipTheirRulesAndAreNotMailed() throws {
    let world = try RunWorld(extra: ["mail": Self.dryMail])
    defer { world.remove() }
    let complete = try world.run([])
    #expect(complete.status == 0, "\(complete.stderr)")
    #expect(try Self.kinds(world).contains("free_entitlement"))
    // An entitlements file in the wrong format is rejected whole: 65, as before, and the run goes on.
    try Data("foo,bar\n1,2\n".utf8).write(to: world.directory.appendingPathComponent("app/entitlements.csv"))
    let message = world.out.appendingPathComponent("message.eml")

    let withheld = try world.run(["--mail", "--dry-run"])
    #expect(withheld.status == 4, "\(withheld.stderr)")
    #expect(withheld.stderr.contains("not mailed"), "\(withheld.stderr)")
    #expect(withheld.stderr.contains("--mail-incomplete"), "\(withheld.stderr)")
    #expect(!FileManager.default.fileExists(atPath: message.path))
    let kinds = try Self.kinds(world)
    #expect(!kinds.contains("free_entitlement") && !kinds.contains("orphaned_charge"), "\(kinds)")
    #expect(!kinds.contains("duplicate_claim"), "\(kinds)")
    let line = try Self.firstLine(world)
    #expect(line.hasPrefix("INCOMPLETE — ") && line.contains(" — 2026-11-29; "), "\(line)")
    #expect(
      line.contains(
        "free entitlements and orphaned charges, duplicate claims, double billing and applied notifications "
          + "not checked: app.entitlements app/entitlements.csv could not be read ("), "\(line)")
    let manifest = try world.file("manifest.json")
    #expect(manifest.contains("\"rules\": \"free entitlements and orphaned charges\""), "\(manifest)")
    #expect(try world.file("summary.html").contains("free entitlements and orphaned charges"))

    // --mail-incomplete mails it; the exit code is the malformed file's 65.
    let mailed = try world.run(["--mail", "--dry-run", "--mail-incomplete"])
    #expect(mailed.status == 65, "\(mailed.stderr)")
    #expect(FileManager.default.fileExists(atPath: message.path))
    let subject = MIMETestDecoding.subject(try String(contentsOf: message, encoding: .utf8))
    #expect(
      subject.hasPrefix("[storerecon] INCOMPLETE — ") && subject.hasSuffix(" — 2026-11-29"), "\(subject)")

    // --require-complete wins over --mail-incomplete.
    try FileManager.default.removeItem(at: message)
    let strict = try world.run(["--mail", "--dry-run", "--mail-incomplete", "--require-complete"])
    #expect(strict.status == 4, "\(strict.stderr)")
    #expect(!FileManager.default.fileExists(atPath: message.path))

    // Without --mail nothing changes: the malformed file's 65.
    #expect(try world.run([]).status == 65)
    #expect(try world.run(["--mail-incomplete"]).status == 64)
  }

  @Test func missingCredentialsSkipOnlyTheRulesThatNeedThem() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.removeItem(at: world.directory.appendingPathComponent("app/credentials.csv"))
    let out = try world.run(["--allow-missing"])
    #expect(out.status == 0, "\(out.stderr)")
    let kinds = try Self.kinds(world)
    #expect(!kinds.contains("free_entitlement") && !kinds.contains("orphaned_charge"), "\(kinds)")
    // The credit rules need credentials too; notification health does not.
    #expect(kinds.contains { $0.hasPrefix("notification_") }, "\(kinds)")
    let line = try Self.firstLine(world)
    #expect(
      line.contains("free entitlements and orphaned charges, duplicate claims, double billing, credits and "),
      "\(line)")
    #expect(line.contains("not checked: app.credentials: no file matches 'app/credentials.csv'"), "\(line)")
  }

  @Test func aMissingStoreExportSkipsThatStoreOnly() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.removeItem(
      at: world.directory.appendingPathComponent("exports/play/voided.jsonl"))
    let out = try world.run(["--allow-missing"])
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try Self.findings(world)
    #expect(!rows.contains { $0.kind == "free_entitlement" && $0.store == "play" })
    #expect(rows.contains { $0.kind == "free_entitlement" && $0.store == "app_store" })
    let line = try Self.firstLine(world)
    #expect(line.contains("free entitlements and orphaned charges for play"), "\(line)")
  }
}
