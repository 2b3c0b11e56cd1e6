import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// The numbers the docs quote from the demo are the demo's: docs/config.md's table of findings per
/// kind/reason at the default size is checked against a default demo run, so the two cannot drift.
@Suite(.serialized) struct DocsDemoNumbersTests {
  /// The project's docs folder, found from this file (Tests/StoreReconCLITests/Run/…).
  static var docs: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs")
  }

  /// The rows of the first Markdown table after `marker` whose header starts `| kind/reason |`.
  static func table(in text: String, after marker: String) -> [(String, String)] {
    guard let start = text.range(of: marker) else { return [] }
    var rows: [(String, String)] = []
    var inTable = false
    for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("| kind/reason |") {
        inTable = true
        continue
      }
      guard inTable else { continue }
      guard line.hasPrefix("|") else { break }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2, !cells[0].hasPrefix("---") else { continue }
      rows.append(
        (
          cells[0].replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "*", with: ""),
          cells[1].replacingOccurrences(of: "*", with: "")
        ))
    }
    return rows
  }

  @Test func theDemoFindsWhatConfigMdSays() throws {
    let text = try String(contentsOf: Self.docs.appendingPathComponent("config.md"), encoding: .utf8)
    let rows = Self.table(in: text, after: "At the default size (5,000 users, seed 42) the demo finds")
    #expect(rows.count > 10, "the table was not found in docs/config.md")
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let options = DemoOptions()
    #expect(options.users == 5000 && options.seed == 42, "the docs quote the default size")
    let outcome = try DemoRun.execute(options: options, directory: dir.path, progress: MemoryProgress())
    var found: [String: Int] = [:]
    for f in outcome.result.findings { found["\(f.kind.rawValue)/\(f.reason.rawValue)", default: 0] += 1 }
    var documented: [String: Int] = [:]
    for (name, count) in rows where name != "total" { documented[name] = Int(count) }
    #expect(documented == found)
    #expect(rows.last.map { $0.0 == "total" && Int($0.1) == outcome.result.findings.count } == true)
    #expect(text.contains("the demo finds \(outcome.result.findings.count) findings"))
    let deploy = try String(contentsOf: Self.docs.appendingPathComponent("deploy.md"), encoding: .utf8)
    let tieOut =
      outcome.result.tieOut.cells.filter { $0.status != .match }.count
      + outcome.result.tieOut.orders.filter { $0.status != .match }.count
    #expect(
      deploy.contains(
        "finds exactly its \(outcome.result.findings.count) planted findings and \(tieOut) tie-out differences"
      ))
  }
}
