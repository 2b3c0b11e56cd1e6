import Foundation
import Testing
import StoreReconTestSupport

/// `merge --mail` sends what `run --mail` sends: the merged summary and workbooks, which are the single
/// run's (docs/partitions.md).
@Suite(.serialized, .enabled(if: SMTPSink.python != nil, SMTPSink.unavailable))
struct MergeMailTests {
  @Test func theMergeMailsTheSingleRunsSummaryAndWorkbooks() throws {
    let sink = try SMTPSink()
    defer { sink.stop() }
    let world = try RunWorld(extra: ["mail": SMTPDeliveryTests.mailConfig(url: sink.url, auth: false)])
    defer { world.remove() }
    let config = world.config.path
    let single = try world.run([])
    #expect(single.status == 0, "\(single.stderr)")
    let keymap = world.directory.appendingPathComponent("keymap.tsv").path
    let made = try Binary.run([
      "keymap", "--config", config, "--date", "2026-11-29", "--out", keymap, "--quiet",
    ])
    #expect(made.status == 0, "\(made.stderr)")
    var parts: [String] = []
    for i in 0..<3 {
      let part = world.directory.appendingPathComponent("part\(i)").path
      let run = try Binary.run(
        [
          "run", "--config", config, "--date", "2026-11-29", "--partition", "\(i)/3", "--keymap", keymap,
          "--out", part, "--quiet",
        ])
      #expect(run.status == 0, "\(run.stderr)")
      parts.append(part)
    }
    let merged = world.directory.appendingPathComponent("merged")
    let out = try Binary.run(
      ["merge", "--config", config, "--date", "2026-11-29", "--out", merged.path, "--mail", "--quiet"] + parts
    )
    #expect(out.status == 0, "\(out.stderr)")
    let messages = try sink.received()
    try #require(messages.count == 1)
    #expect(
      messages[0].string("text").replacingOccurrences(of: "\r\n", with: "\n")
        == (try world.file("summary.txt")))
    let names = messages[0].attachments.compactMap { $0["filename"] as? String }
    #expect(names.contains("reconciliation.xlsx"))
    for attachment in messages[0].attachments {
      let name = attachment["filename"] as? String ?? ""
      let decoded = Data(base64Encoded: attachment["base64"] as? String ?? "").map { [UInt8]($0) }
      // Byte for byte the single run's workbook.
      #expect(decoded == (try [UInt8](Data(contentsOf: world.out.appendingPathComponent(name)))), "\(name)")
    }
  }
}
