import Foundation
import Testing
import StoreReconTestSupport

/// Issue 32: a config error never echoes a raw control character: a key or value holding an escape
/// sequence is shown as `\x1b…`, so the terminal or log that shows the error does not obey it.
@Suite struct ConfigControlCharacterTests {
  @Test func anEscapeSequenceInAConfigKeyIsShownEscaped() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let config = dir.appendingPathComponent("c.json")
    try Data(#"{"app": {"entitlements": "e.csv"}, "\u001b[2J\u001b[31mtimeZone": "UTC"}"#.utf8).write(
      to: config)
    let out = try Binary.run(["run", "--config", config.path, "--date", "2026-11-29"])
    #expect(out.status == 78, "\(out.stderr)")
    #expect(!out.stderr.utf8.contains(0x1B), "\(out.stderr)")
    #expect(out.stderr.contains(#"unknown key '\x1b[2J\x1b[31mtimeZone'"#), "\(out.stderr)")
    #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
  }

  @Test func aBellOrCarriageReturnInAPathIsShownEscaped() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let config = dir.appendingPathComponent("c.json")
    try Data(#"{"app": {"entitlements": "e\u0007\rfake.csv"}}"#.utf8).write(to: config)
    let out = try Binary.run(["run", "--config", config.path, "--date", "2026-11-29"])
    #expect(out.status != 0)
    #expect(!out.stderr.utf8.contains(0x07) && !out.stderr.utf8.contains(0x0D), "\(out.stderr)")
    #expect(out.stderr.contains(#"e\x07\x0dfake.csv"#), "\(out.stderr)")
  }
}
