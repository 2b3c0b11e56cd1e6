import Foundation
import Testing
import StoreReconReports
import StoreReconTestSupport

@testable import StoreReconCore

/// Thresholds and incomplete inputs as a user meets them: exit codes, the summary's first line, the subject.
@Suite(.serialized) struct AlertsAndCompletenessTests {
  static func firstLine(_ world: RunWorld) throws -> String {
    TextWrap.firstItem(of: try world.file("summary.txt"))
  }

  static var dryMail: [String: Any] {
    [
      "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": "smtp://127.0.0.1:1",
      "tls": "none",
    ]
  }

  @Test func exceededThresholdExits3AndSaysWhichInTheFirstLineAndSubject() throws {
    let world = try RunWorld(extra: ["mail": Self.dryMail])
    defer { world.remove() }
    #expect(try world.run([]).status == 0)
    // Money at stake of the unclaimed charges in the first currency they have, from findings.csv.
    let rows = try world.file("findings.csv").split(separator: "\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let unclaimed = rows.filter { $0[2] == "unclaimed" && !$0[7].isEmpty }
    let currency = try #require(unclaimed.map { $0[7] }.min().flatMap { Currency.named($0) })
    let stake = unclaimed.filter { $0[7] == currency.code }.compactMap { Int64($0[8]) }.reduce(0, +)
    let free = rows.filter { $0[1] == "free_entitlement" }.count
    try world.setConfig([
      "alerts": [
        "free_entitlement": ["maxCount": free - 1], "duplicate_claim": ["maxCount": 1_000],
        "orphaned_charge/unclaimed": ["maxAmount": [currency.code: stake - 1]],
      ]
    ])

    let out = try world.run(["--mail", "--dry-run"])
    #expect(out.status == 3, "\(out.stderr)")
    let line = try Self.firstLine(world)
    // Thresholds exceeded → ALERT; the cases (the first recorded run: all new) and their money come first.
    #expect(
      line.hasPrefix("ALERT — ") && line.contains(" new (") && line.contains(" — 2026-11-29; "), "\(line)")
    #expect(
      line.contains("; new: \(Set(rows.map { $0[0] }).count) findings"), "\(line)")
    #expect(
      line.contains(
        "; free_entitlement: \(free) findings > maxCount \(free - 1); orphaned_charge/unclaimed: \(currency.format(stake)) \(currency.code) at stake > maxAmount \(currency.format(stake - 1)) \(currency.code); "
      ), "\(line)")
    #expect(out.stdout.hasPrefix(line + "\n"))
    #expect(
      out.stderr.contains("storerecon: ALERT — free_entitlement: \(free) findings > maxCount \(free - 1)"))
    let eml = try world.file("message.eml")
    #expect(
      MIMETestDecoding.subject(eml)
        == "[storerecon] " + (line.components(separatedBy: "; ").first ?? ""))
    #expect(
      MIMETestDecoding.subject(eml).hasPrefix("[storerecon] ALERT — ")
        && MIMETestDecoding.subject(eml).hasSuffix(" — 2026-11-29"))
    #expect(try world.file("summary.html").contains("ALERT — "))

    // One minor unit more allowed, one finding more allowed: no alert.
    try world.setConfig([
      "alerts": [
        "free_entitlement": ["maxCount": free],
        "orphaned_charge/unclaimed": ["maxAmount": [currency.code: stake]],
      ]
    ])
    let calm = try world.run([])
    #expect(calm.status == 0, "\(calm.stderr)")
    #expect(try Self.firstLine(world).hasSuffix("; no threshold exceeded; inputs cover 2026-11-29"))
  }

  @Test func thresholdsNotExceededExit0() throws {
    let world = try RunWorld(extra: [
      "alerts": ["free_entitlement": ["maxCount": 100_000, "maxAmount": ["EUR": 100_000_000]]]
    ])
    defer { world.remove() }
    let out = try world.run([])
    #expect(out.status == 0, "\(out.stderr)")
    let line = try Self.firstLine(world)
    // No threshold exceeded, but findings with money at stake and no run history: ATTENTION.
    #expect(
      line.hasPrefix("ATTENTION — ") && line.contains(" new (") && line.contains(" — 2026-11-29; "), "\(line)"
    )
    #expect(line.hasSuffix("; no threshold exceeded; inputs cover 2026-11-29"))
  }

  @Test func invalidAlertsAreConfigErrors() throws {
    let world = try RunWorld()
    defer { world.remove() }
    for (alerts, message) in [
      (["free_lunch": ["maxCount": 1]], "'free_lunch' is not a finding kind"),
      (["free_entitlement/unclaimed": ["maxCount": 1]], "free_entitlement has the reasons"),
      (["free_entitlement": ["maxAmount": ["XYZ": 1]]], "'XYZ' is not an ISO 4217 currency"),
      (["free_entitlement": [:]], "sets no threshold"),
    ] as [([String: Any], String)] {
      try world.setConfig(["alerts": alerts])
      let out = try world.run([])
      #expect(out.status == 78, "\(alerts)")
      #expect(out.stderr.contains(message), "\(out.stderr)")
    }
  }

  @Test func reportingCurrencyThresholdNeedsAnFXTableAndUsesIt() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // With the demo's FX table (reporting currency USD) one limit in USD applies across currencies.
    try world.setConfig(["alerts": ["orphaned_charge/unclaimed": ["maxAmountMinor": 1]]])
    let over = try world.run([])
    #expect(over.status == 3, "\(over.stderr)")
    let line = try Self.firstLine(world)
    #expect((line.hasPrefix("ALERT — ") && line.contains(" — 2026-11-29")), "\(line)")
    #expect(line.contains("orphaned_charge/unclaimed"), "\(line)")
    #expect(line.contains("USD"), "\(line)")
    try world.setConfig(["alerts": ["orphaned_charge/unclaimed": ["maxAmountMinor": 100_000_000]]])
    #expect(try world.run([]).status == 0)

    // Without an FX table the same key is a config error naming what is missing.
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    for key in ["fxRates", "reportingCurrency", "experiments"] { root.removeValue(forKey: key) }
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)
    let noFX = try world.run([])
    #expect(noFX.status == 78)
    #expect(noFX.stderr.contains("maxAmountMinor needs an FX table"), "\(noFX.stderr)")
  }

  @Test func inputsThatDoNotCoverTheDateAreIncomplete() throws {
    let world = try RunWorld(extra: ["mail": Self.dryMail])
    defer { world.remove() }
    // The exports end on 2026-11-29: a run for 2026-12-02 is not covered by either store.
    let out = try world.run(["--mail", "--dry-run", "--mail-incomplete"], date: "2026-12-02")
    #expect(out.status == 0, "\(out.stderr)")
    let line = try Self.firstLine(world)
    #expect((line.hasPrefix("INCOMPLETE — ") && line.contains(" — 2026-12-02")), "\(line)")
    #expect(line.contains("; app_store.transactions: last transaction 2026-11-29T"), "\(line)")
    #expect(line.contains(", before noon of 2026-12-02 (UTC)"), "\(line)")
    #expect(line.contains("; play.sales: no sales rows for 2026-12-02 (last row 2026-11-29T"))
    #expect(out.stderr.contains("storerecon: warning: INCOMPLETE — app_store.transactions"))
    let incompleteSubject = MIMETestDecoding.subject(try world.file("message.eml"))
    #expect(
      incompleteSubject.hasPrefix("[storerecon] INCOMPLETE — ")
        && incompleteSubject.hasSuffix(" — 2026-12-02"))

    // --require-complete: exit 4, the reports are written, nothing is mailed.
    try FileManager.default.removeItem(at: world.out.appendingPathComponent("message.eml"))
    let strict = try world.run(["--mail", "--dry-run", "--require-complete"], date: "2026-12-02")
    #expect(strict.status == 4)
    #expect(strict.stderr.contains("storerecon: error: INCOMPLETE — app_store.transactions"))
    #expect(strict.stderr.contains("not mailed (--require-complete)"))
    #expect(!FileManager.default.fileExists(atPath: world.out.appendingPathComponent("message.eml").path))
    let strictLine = try Self.firstLine(world)
    #expect(strictLine.hasPrefix("INCOMPLETE — ") && strictLine.contains(" — 2026-12-02"))

    // The covered date passes --require-complete.
    let covered = try world.run(["--require-complete"])
    #expect(covered.status == 0, "\(covered.stderr)")
  }

  @Test func noAppStoreTransactionAfterNoonIsIncomplete() throws {
    let world = try RunWorld(coverDay: false)
    defer { world.remove() }
    // Keep only the App Store transactions purchased before noon of the report date.
    let noon = CivilDate(year: 2026, month: 11, day: 29).startUTC.ms + 12 * 3_600_000
    let path = world.directory.appendingPathComponent("exports/apple/transactions.jsonl")
    let kept = try String(contentsOf: path, encoding: .utf8).split(separator: "\n").filter { line in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      // JWS and malformed lines go too: only plain transactions bought before noon remain.
      return (object?["purchaseDate"] as? Int).map { Int64($0) < noon } ?? false
    }
    try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: path)
    let out = try world.run(["--require-complete"])
    #expect(out.status == 4, "\(out.stderr)")
    let line = try Self.firstLine(world)
    #expect((line.hasPrefix("INCOMPLETE — ") && line.contains(" — 2026-11-29")), "\(line)")
    #expect(line.contains("; app_store.transactions: last transaction 2026-11-29T"), "\(line)")
    #expect(line.contains(", before noon of 2026-11-29 (UTC)"), "\(line)")
  }

  @Test func missingFileExits66UnlessAllowedThenIncomplete() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.removeItem(
      at: world.directory.appendingPathComponent("exports/play/voided.jsonl"))
    let strict = try world.run([])
    #expect(strict.status == 66)
    #expect(strict.stderr.contains("no file matches play.voided"))

    let allowed = try world.run(["--allow-missing"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let line = try Self.firstLine(world)
    #expect(line.hasPrefix("INCOMPLETE — ") && line.contains(" — 2026-11-29"))
    #expect(
      line.contains("not checked: play.voided: no file matches 'exports/play/voided*.jsonl'"), "\(line)")

    let required = try world.run(["--allow-missing", "--require-complete"])
    #expect(required.status == 4)

    // app.entitlements stays required.
    try FileManager.default.removeItem(at: world.directory.appendingPathComponent("app/entitlements.csv"))
    #expect(try world.run(["--allow-missing"]).status == 66)
  }

  @Test func mailFlagsAreChecked() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let dry = try world.run(["--dry-run"])
    #expect(dry.status == 64)
    #expect(dry.stderr.contains("--dry-run needs --mail"))
    let noMail = try world.run(["--mail"])
    #expect(noMail.status == 78)
    #expect(noMail.stderr.contains("--mail needs a \"mail\" section"))
    #expect(!FileManager.default.fileExists(atPath: world.out.path), "checked before the run")
    try world.setConfig([
      "mail": ["from": "a@b.example", "to": ["c@d.example"], "smtp": "smtp://h:25", "password": "x"]
    ])
    let clear = try world.run([])
    #expect(clear.status == 78)
    #expect(clear.stderr.contains("mail.password is not allowed"))
  }
}
