import Foundation
import Testing
import StoreReconTestSupport

/// `storerecon fetch` as a user runs it, without a server: help, usage errors, config errors.
@Suite struct FetchCommandLineTests {
  @Test func helpNamesTheSourcesAndTheExitCodes() throws {
    let help = try Binary.run(["fetch", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: storerecon fetch [apple | SOURCE…] --config FILE"))
    #expect(help.stdout.contains("77 the store refused the key"))
    #expect(help.stdout.contains("  stripe              Stripe API (pinned Stripe-Version)"))
    #expect(try Binary.run(["help", "fetch"]).stdout == help.stdout)
    #expect(try Binary.run(["--help"]).stdout.contains("fetch      Download what is new"))
  }

  @Test func usageErrorsExit64() throws {
    for args in [
      ["fetch"], ["fetch", "itunes", "--config", "c.json"], ["fetch", "--config", "c", "--date", "soon"],
    ] {
      let out = try Binary.run(args)
      #expect(out.status == 64, "\(args)")
      #expect(out.stderr.hasPrefix("Error: "), "\(args)")
    }
    #expect(
      try Binary.run(["fetch", "itunes", "--config", "c.json"]).stderr.contains(
        "unknown source 'itunes' (known: apple, google, stripe)"))
  }

  @Test func aConfigWithoutFetchOrWithAnUnknownFetchKeyIs78() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("c.json")
    try "{\"timeZone\": \"UTC\"}".write(to: config, atomically: true, encoding: .utf8)
    let none = try Binary.run(["fetch", "--config", config.path])
    #expect(none.status == 78)
    #expect(none.stderr.contains("has no \"fetch\" object"))
    try "{\"fetch\": {\"into\": \"f\", \"apple\": {\"keyID\": \"K\"}}}".write(
      to: config, atomically: true, encoding: .utf8)
    let typo = try Binary.run(["fetch", "--config", config.path])
    #expect(typo.status == 78)
    #expect(typo.stderr.contains("unknown key 'fetch.apple.keyID' — did you mean 'keyId'?"), "\(typo.stderr)")
    try "{\"fetch\": {\"into\": \"f\"}}".write(to: config, atomically: true, encoding: .utf8)
    let nothing = try Binary.run(["fetch", "--config", config.path])
    #expect(nothing.status == 78)
    #expect(nothing.stderr.contains("configures no source"))
    let notApple = try Binary.run(["fetch", "apple", "--config", config.path])
    #expect(notApple.stderr.contains("does not configure apple"))
  }

  @Test func aMissingKeyFileIs66AndNamesTheFile() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("c.json")
    try """
    {"fetch": {"into": "f", "appStoreServerURL": "https://127.0.0.1:9", "apple":
      {"keyId": "K", "issuerId": "I", "bundleId": "B", "privateKeyFile": "missing.p8"}}}
    """.write(to: config, atomically: true, encoding: .utf8)
    let out = try Binary.run(["fetch", "--config", config.path, "--quiet"])
    #expect(out.status == 66)
    #expect(out.stderr.contains("missing.p8 does not exist"), "\(out.stderr)")
  }
}
