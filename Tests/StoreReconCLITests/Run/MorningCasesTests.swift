import Foundation
import Testing
import StoreReconTestSupport

/// Issue 30 as a new user meets it: the README's first command shows a second day with new, still open
/// and resolved, with no server; `storerecon settle` turns the next morning OK and the e-mail subject
/// says so; a decision for a key no run has seen stops the run naming it (docs/cases.md).
@Suite(.serialized) struct MorningCasesTests {
  static func cases(_ dir: URL, _ date: String) throws -> [[String]] {
    let text = try String(
      contentsOf: dir.appendingPathComponent("reports/\(date)/cases.csv"), encoding: .utf8)
    return text.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// The App Store lines the run in `out` accepted unverified, grouped as the status line writes them.
  static func unverifiedAppStoreLines(_ out: String) throws -> String {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json")))
      as? [String: Any]
    let apple = (manifest?["inputs"] as? [[String: Any]] ?? []).first {
      $0["role"] as? String == "app_store.transactions"
    }
    var grouped = String(try #require(apple?["unverified"] as? Int))
    for at in stride(from: grouped.count - 3, to: 0, by: -3) {
      grouped.insert(",", at: grouped.index(grouped.startIndex, offsetBy: at))
    }
    return grouped
  }

  @Test func twoDaysThenSettledIsOK() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let demo = try Binary.run(["demo", "--out", dir.path, "--users", "600", "--seed", "5", "--quiet"])
    #expect(demo.status == 0, "\(demo.stderr)")
    // Day two against day one, with no database: every state a morning can hold.
    #expect(FileManager.default.fileExists(atPath: dir.path + "/reports/history.sqlite"))
    #expect(demo.stdout.contains("cases (against 2026-11-28): "), "\(demo.stdout)")
    let rows = try Self.cases(dir, "2026-11-29")
    let states = Set(rows.map { $0[1] })
    #expect(states.isSuperset(of: ["new", "open", "resolved"]), "\(states)")
    let first = try #require(demo.stdout.split(separator: "\n").first.map(String.init))
    let newCount = rows.filter { $0[1] == "new" }.count
    let openCount = rows.filter { $0[1] == "open" }.count
    #expect(first.hasPrefix("ATTENTION — \(newCount) new"), "\(first)")
    #expect(first.contains(", \(openCount) open ("), "\(first)")
    // findings.csv carries each finding's case.
    let findings = try String(
      contentsOf: dir.appendingPathComponent("reports/2026-11-29/findings.csv"), encoding: .utf8)
    #expect(findings.split(separator: "\n").first?.hasSuffix(",state,first_seen,age_days") == true)
    #expect(findings.contains(",open,2026-11-28,1\n"))

    // A typo settles nothing: exit 64, nothing written.
    let config = dir.appendingPathComponent("storerecon.json").path
    let out = dir.appendingPathComponent("reports/2026-11-29").path
    let typo = try Binary.run([
      "settle", "--config", config, "--out", out, "0000000000000000", "--reason", "r", "--by", "b",
    ])
    #expect(
      typo.status == 64 && typo.stderr.contains("unknown case key '0000000000000000'"), "\(typo.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path + "/decisions.csv"))

    // Settle every unsettled case, with a mail section so the next morning's message can be looked at.
    let settle = try Binary.run([
      "settle", "--config", config, "--out", out, "--all", "--reason", "known at go-live", "--by",
      "finance@acme.example",
    ])
    #expect(settle.status == 0, "\(settle.stderr)")
    #expect(settle.stdout.hasPrefix("settled \(newCount + openCount) cases"), "\(settle.stdout)")
    var root =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
      ?? [:]
    root["mail"] = [
      "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": "smtp://127.0.0.1:1",
      "tls": "none",
    ]
    try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(
      to: URL(fileURLWithPath: config))
    let third = try Binary.run([
      "run", "--config", config, "--date", "2026-11-29", "--out", out, "--mail", "--dry-run", "--quiet",
    ])
    #expect(third.status == 0, "\(third.stderr)")
    let settled = newCount + openCount
    // The demo's exports are mostly decoded lines, which its config accepts (`appStore.signatures`
    // `verify`): every status line counts them.
    let grouped = try Self.unverifiedAppStoreLines(out)
    let status = "OK — 0 new, 0 open, \(settled) settled, \(grouped) App Store lines unverified — 2026-11-29"
    #expect(third.stdout.hasPrefix(status), "\(third.stdout)")
    let eml = try String(contentsOf: URL(fileURLWithPath: out + "/message.eml"), encoding: .utf8)
    #expect(MIMETestDecoding.subject(eml) == "[storerecon] " + status)
    #expect(try Self.cases(dir, "2026-11-29").allSatisfy { $0[1] == "settled" || $0[1] == "resolved" })

    // A decision whose key no run has seen stops the run with exit 78, naming the line.
    let decisions = dir.appendingPathComponent("decisions.csv")
    var text = try String(contentsOf: decisions, encoding: .utf8)
    text += "ffffffffffffffff,accept,typo,ana,,\n"
    try Data(text.utf8).write(to: decisions)
    let refused = try Binary.run(["run", "--config", config, "--date", "2026-11-29", "--out", out, "--quiet"])
    #expect(refused.status == 78, "\(refused.stderr)")
    #expect(refused.stderr.contains("unknown case key 'ffffffffffffffff'"), "\(refused.stderr)")
    #expect(refused.stderr.split(separator: "\n").count == 1)
  }
}
