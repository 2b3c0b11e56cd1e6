import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// The binary as a user runs it: exit codes, stdout, stderr, files.
@Suite(.serialized) struct CommandLineTests {
  @Test func helpAndVersionGoToStdout() throws {
    let help = try Binary.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: storerecon <command>"))
    #expect(help.stderr.isEmpty)
    let runHelp = try Binary.run(["run", "--help"])
    #expect(runHelp.status == 0)
    #expect(runHelp.stdout.contains("--config FILE"))
    let version = try Binary.run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout == "storerecon \(StoreReconVersion.version)\n")
  }

  @Test func usageErrorsExit64WithTheStandardMessage() throws {
    for args in [
      ["frobnicate"], ["run"], ["run", "--config"], ["run", "--config", "x.json", "--date", "2026-02-30"],
      ["run", "--config=x.json", "--bogus"], ["demo", "--users", "ten"],
    ] {
      let out = try Binary.run(args)
      #expect(out.status == 64, "\(args)")
      #expect(out.stderr.hasPrefix("Error: "), "\(args)")
      #expect(out.stderr.contains("\nUsage: storerecon"), "\(args)")
      #expect(out.stderr.contains("See 'storerecon --help' for more information."), "\(args)")
      #expect(out.stdout.isEmpty)
    }
  }

  @Test func missingConfigAndBadConfigAreOneLine() throws {
    let dir = try Binary.temporaryDirectory()
    let missing = try Binary.run(["run", "--config", dir.appendingPathComponent("nope.json").path])
    #expect(missing.status == 66)
    #expect(missing.stderr.split(separator: "\n").count == 1)
    #expect(missing.stderr.contains("does not exist"))

    let bad = dir.appendingPathComponent("bad.json")
    try Data("{\"app\": {\"entitlements\": 3".utf8).write(to: bad)
    let badOut = try Binary.run(["run", "--config", bad.path])
    #expect(badOut.status == 78)
    #expect(badOut.stderr.split(separator: "\n").count == 1)

    let wrongType = dir.appendingPathComponent("wrong.json")
    try Data("{\"app\": {\"entitlements\": \"e.csv\"}, \"graceDays\": {\"app_store\": \"sixteen\"}}".utf8)
      .write(to: wrongType)
    let wrongOut = try Binary.run(["run", "--config", wrongType.path])
    #expect(wrongOut.status == 78)
    #expect(wrongOut.stderr.contains("graceDays.app_store"))

    let noFile = dir.appendingPathComponent("nofile.json")
    try Data(
      "{\"appStore\": {\"transactions\": [\"exports/*.jsonl\"]}, \"app\": {\"entitlements\": \"e.csv\"}}".utf8
    ).write(to: noFile)
    let noFileOut = try Binary.run(["run", "--config", noFile.path, "--date", "2026-11-29"])
    #expect(noFileOut.status == 66)
    #expect(noFileOut.stderr.contains("exports/*.jsonl"))
  }
}
