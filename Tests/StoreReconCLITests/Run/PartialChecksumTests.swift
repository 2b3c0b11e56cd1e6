import Foundation
import Testing
import StoreReconTestSupport

/// Partials as a user runs them (issue 32, docs/partitions.md#the-partial-file): a partial states the
/// SHA-256 of its content, so a hand-edited one is refused by `merge` (exit 65, one line, nothing
/// written), and `merge --out` replaces only a published report.
@Suite struct PartialChecksumTests {
  /// A 300-user world, its keymap and two partitions; `body` gets the world's folder and `merge(out,
  /// partials)`.
  static func withPartitions(_ body: (URL, (String, [String]) throws -> Binary.Output) throws -> Void) throws
  {
    let world = try RunWorld(users: 300, coverDay: false)
    defer { world.remove() }
    let dir = world.directory
    let config = world.config.path
    let keymap = try Binary.run(
      ["keymap", "--config", config, "--date", "2026-11-29", "--out", dir.path + "/keymap.tsv", "--quiet"])
    #expect(keymap.status == 0, "\(keymap.stderr)")
    for i in 0..<2 {
      let part = try Binary.run([
        "run", "--config", config, "--date", "2026-11-29", "--partition", "\(i)/2", "--keymap",
        dir.path + "/keymap.tsv", "--out", dir.path + "/part\(i)", "--quiet",
      ])
      #expect(part.status == 0, "\(part.stderr)")
    }
    try body(dir) { out, partials in
      try Binary.run(
        ["merge", "--config", config, "--date", "2026-11-29", "--out", out, "--quiet", "--no-history"]
          + partials.map { dir.path + "/" + $0 })
    }
  }

  @Test func anEditedPartialIsRefusedAndNothingIsWritten() throws {
    try Self.withPartitions { dir, merge in
      let file = dir.appendingPathComponent("part0/partial.tsv")
      let original = try String(contentsOf: file, encoding: .utf8)
      let lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      // The issue's three edits: an amount ×100, a finding deleted, a revenue row +1,000,000.00.
      let revenue = try #require(lines.firstIndex { $0.hasPrefix("R\t") })
      let finding = try #require(lines.firstIndex { $0.hasPrefix("F\t") })
      var times100 = lines
      var cells = lines[revenue].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      cells[6] += "00"
      times100[revenue] = cells.joined(separator: "\t")
      var deleted = lines
      deleted.remove(at: finding)
      var million = lines
      cells = lines[revenue].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      cells[6] = String((Int64(cells[6]) ?? 0) + 100_000_000)
      million[revenue] = cells.joined(separator: "\t")
      for (name, edited) in [("×100", times100), ("deleted", deleted), ("+1,000,000.00", million)] {
        try Data(edited.joined(separator: "\n").utf8).write(to: file)
        let out = dir.path + "/merged-\(edited.count)-\(name.count)"
        let run = try merge(out, ["part0", "part1"])
        #expect(run.status == 65, "\(name): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(name): \(run.stderr)")
        #expect(
          run.stderr.contains(
            "partial \(file.path): line \(edited.count - 1): the content does not match its sha256 line"),
          "\(name): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
      }
      try Data(original.utf8).write(to: file)
      let run = try merge(dir.path + "/merged", ["part0", "part1"])
      #expect(run.status == 0, "\(run.stderr)")
    }
  }

  @Test func mergeOutReplacesOnlyAPublishedReport() throws {
    try Self.withPartitions { dir, merge in
      let files = FileManager.default
      // A folder of other files, one with another program's manifest.json, and a partition's folder.
      let random = dir.path + "/random"
      try files.createDirectory(atPath: random, withIntermediateDirectories: true)
      try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: random + "/notes.txt"))
      let webApp = dir.path + "/web"
      try files.createDirectory(atPath: webApp, withIntermediateDirectories: true)
      try Data(#"{"name": "web", "start_url": "/"}"#.utf8).write(
        to: URL(fileURLWithPath: webApp + "/manifest.json"))
      let cases = [
        (random, "it holds files but no manifest.json, so it is not a storerecon report folder"),
        (webApp, "its manifest.json is not a storerecon manifest, so it is not a published report"),
        (dir.path + "/part1", "it holds a partition's partial.tsv, not a published report"),
      ]
      for (out, why) in cases {
        let before = try files.contentsOfDirectory(atPath: out).sorted()
        let run = try merge(out, ["part0", "part1"])
        #expect(run.status == 74, "\(out): \(run.stderr)")
        #expect(
          run.stderr.contains("cannot write the reports to \(out): \(why) that a run may replace"),
          "\(run.stderr)")
        #expect(try files.contentsOfDirectory(atPath: out).sorted() == before)
      }
      // A published report is replaced (the previous one kept beside it).
      let report = dir.path + "/report"
      #expect(try merge(report, ["part0", "part1"]).status == 0)
      let again = try merge(report, ["part0", "part1"])
      #expect(again.status == 0, "\(again.stderr)")
      #expect(files.fileExists(atPath: report + ".previous/manifest.json"))
    }
  }
}
