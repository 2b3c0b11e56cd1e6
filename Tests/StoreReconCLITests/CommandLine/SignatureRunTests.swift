import Foundation
import Testing
import StoreReconTestSupport

/// `appStore.signatures` and `appStore.testRootCertificate` as a run applies them to a demo world
/// (docs/signatures.md): its JWS lines are signed under the demo's test root, the rest are decoded lines.
@Suite struct SignatureRunTests {
  /// The world's App Store lines: (decoded JSON, compact JWS).
  static func lineKinds(_ world: RunWorld) throws -> (decoded: Int, jws: Int) {
    let text = try String(
      contentsOf: world.directory.appendingPathComponent("exports/apple/transactions.jsonl"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    let decoded = lines.filter { $0.hasPrefix("{") }.count
    return (decoded, lines.count - decoded)
  }

  /// Sets `appStore` keys of the world's config (`nil` removes one).
  static func setAppStore(_ world: RunWorld, _ keys: [String: String?]) throws {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var appStore = root["appStore"] as? [String: Any] ?? [:]
    for (key, value) in keys { appStore[key] = value }
    try world.setConfig(["appStore": appStore])
  }

  /// The App Store input's entry in the manifest.
  static func appStoreInput(_ world: RunWorld) throws -> [String: Any] {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    return inputs.first { $0["role"] as? String == "app_store.transactions" } ?? [:]
  }

  /// The reasons of the App Store rejects file, counted.
  static func rejectReasons(_ world: RunWorld) throws -> [String: Int] {
    let rejects = try world.file("rejects/exports_apple_transactions.jsonl.csv")
    var counts: [String: Int] = [:]
    for line in rejects.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
      if fields.count > 2 { counts[String(fields[2]), default: 0] += 1 }
    }
    return counts
  }

  /// `storerecon run` without `--quiet`.
  static func loudRun(_ world: RunWorld, _ extra: [String] = []) throws -> Binary.Output {
    // A run whose signature setting rejects every JWS line is damaged by the default limits.
    try Binary.run(
      [
        "run", "--config", world.config.path, "--date", "2026-11-29", "--out", world.out.path,
        "--allow-damaged",
      ] + extra)
  }

  @Test func theDemoVerifiesUnderItsTestRootAndSaysSo() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let (_, jws) = try Self.lineKinds(world)
    #expect(jws > 0)
    let output = try Self.loudRun(world)
    #expect(output.stderr.contains("also trusted when signed under the TEST root"))
    #expect(output.stdout.contains("(signatures verify + test root, unverified "))
    let input = try Self.appStoreInput(world)
    #expect(input["signatures"] as? String == "verify + test root")
    // Every JWS line verified: the accepted lines are those and the decoded ones.
    #expect(input["unverified"] as? Int == (input["accepted"] as? Int ?? 0) - jws)
    #expect(try Self.rejectReasons(world).keys.allSatisfy { !$0.contains("chain") && $0 != "signature" })
    // summary.txt is wrapped at 78 columns: the words, whatever lines they are on.
    let words = try world.file("summary.txt").split(whereSeparator: { $0 == " " || $0 == "\n" })
    #expect(words.joined(separator: " ").contains("verified against a TEST root"))
  }

  @Test func withoutTheTestRootEveryJWSLineFailsThePinnedRoot() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.setAppStore(world, ["testRootCertificate": nil])
    let (_, jws) = try Self.lineKinds(world)
    let output = try Self.loudRun(world)
    #expect(!output.stderr.contains("TEST root"))
    #expect(try Self.rejectReasons(world)["untrusted chain: unable to get local issuer certificate"] == jws)
    let input = try Self.appStoreInput(world)
    #expect(input["signatures"] as? String == "verify")
    #expect(input["unverified"] as? Int == input["accepted"] as? Int)
  }

  @Test func offIsSaidOnEveryRunAndCountsEveryLine() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.setAppStore(world, ["signatures": "off"])
    let (decoded, jws) = try Self.lineKinds(world)
    let output = try Self.loudRun(world)
    #expect(
      output.stderr.contains("warning: App Store signatures are NOT verified (appStore.signatures is off)"))
    #expect(try world.run([]).stdout.contains("(signatures off, unverified "))
    #expect(try world.run([]).stdout.contains("SIGNATURES NOT VERIFIED"))
    #expect(try world.file("summary.txt").contains("SIGNATURES NOT VERIFIED (appStore.signatures is off)"))
    let input = try Self.appStoreInput(world)
    #expect(input["signatures"] as? String == "off")
    let accepted = input["accepted"] as? Int ?? -1
    #expect(input["unverified"] as? Int == accepted)
    #expect(accepted + (input["rejected"] as? Int ?? 0) == decoded + jws)
  }

  @Test func requireRejectsDecodedLines() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.setAppStore(world, ["signatures": "require"])
    let (decoded, jws) = try Self.lineKinds(world)
    // Nearly every line rejected: damaged, so the run stops unless allowed.
    #expect(try world.run([]).status == 65)
    #expect(try world.run(["--allow-damaged"]).status == 0)
    let reasons = try Self.rejectReasons(world)
    let input = try Self.appStoreInput(world)
    #expect(input["signatures"] as? String == "require + test root")
    #expect(input["unverified"] as? Int == 0)
    // Every decoded line goes, but those the rejects of their own (malformed) would take first.
    let unsigned = reasons["unsigned line (appStore.signatures is require)"] ?? 0
    #expect(unsigned > 0 && unsigned <= decoded)
    #expect(input["accepted"] as? Int ?? -1 <= jws)
  }

  @Test func aBadValueOrAnUnreadableTestRootStopsTheRun() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.setAppStore(world, ["signatures": "maybe"])
    let bad = try world.run([])
    #expect(bad.status == 78)
    #expect(bad.stderr.contains("appStore.signatures must be one of verify, require, off"))
    try Self.setAppStore(world, ["signatures": "verify", "testRootCertificate": "nowhere.pem"])
    let missing = try world.run([])
    #expect(missing.status == 78)
    #expect(missing.stderr.contains("appStore.testRootCertificate: cannot read"))
  }

  /// The counts of the run's line `signatures: N verified, M skipped as verified by an earlier run`.
  static func signatureCounts(_ stderr: String) -> (verified: Int, known: Int)? {
    guard let line = stderr.split(separator: "\n").first(where: { $0.contains("storerecon: signatures: ") })
    else { return nil }
    let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
  }

  @Test func aSecondRunVerifiesNoSignatureAgainAndAChangedLineInFull() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let first = try Self.loudRun(world)
    let record = world.directory.appendingPathComponent("verified-jws.bin")
    #expect(FileManager.default.fileExists(atPath: record.path))
    let counts = try #require(Self.signatureCounts(first.stderr))
    #expect(counts.verified > 0 && counts.known == 0)
    let findings = try world.file("findings.csv")
    // Unchanged inputs: nothing verified again (the file's parse is merged from its snapshot,
    // docs/snapshot.md; without it every line is known to the record), the same findings, the record
    // not rewritten.
    let before = try Data(contentsOf: record)
    let second = try Self.loudRun(world)
    // (the notification history's lines are still checked against the record: all known).
    #expect(Self.signatureCounts(second.stderr)?.verified == 0)
    #expect((Self.signatureCounts(second.stderr)?.known ?? 0) < counts.verified)
    #expect(second.stderr.contains("snapshot: 1 App Store file merged without parsing"))
    #expect(try world.file("findings.csv") == findings)
    let unsnapshotted = try Self.loudRun(world, ["--from-scratch"])
    #expect(Self.signatureCounts(unsnapshotted.stderr)?.verified == counts.verified)
    #expect(try world.file("findings.csv") == findings)
    #expect(try Data(contentsOf: record) == before)
    // One JWS line's signature altered: that line alone is verified in full, and rejected as before.
    let path = world.directory.appendingPathComponent("exports/apple/transactions.jsonl")
    var lines = try String(contentsOf: path, encoding: .utf8).components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.hasPrefix("ey") })
    var characters = Array(lines[index])
    let at = try #require(characters.lastIndex(of: ".")) + 10
    characters[at] = characters[at] == "A" ? "B" : "A"
    lines[index] = String(characters)
    try lines.joined(separator: "\n").write(to: path, atomically: true, encoding: .utf8)
    let third = try Self.loudRun(world)
    #expect(Self.signatureCounts(third.stderr)?.verified == 0)
    #expect(Self.signatureCounts(third.stderr)?.known == counts.verified - 1)
    #expect(try Self.rejectReasons(world)["signature"] == 1)
    // A damaged record is not trusted: said, every signature verified in full, the record rebuilt.
    var damaged = [UInt8](try Data(contentsOf: record))
    damaged[damaged.count / 2] ^= 1
    try Data(damaged).write(to: record)
    let fourth = try Self.loudRun(world)
    #expect(fourth.stderr.contains("is not trusted: its check (HMAC) does not match"))
    #expect(Self.signatureCounts(fourth.stderr)?.verified == counts.verified - 1)
    #expect(Self.signatureCounts(fourth.stderr)?.known == 0)
    // Unchanged since: the file merged from the snapshot the fourth run wrote; nothing verified.
    let fifth = try Self.loudRun(world)
    #expect(Self.signatureCounts(fifth.stderr)?.verified == 0)
    #expect((Self.signatureCounts(fifth.stderr)?.known ?? 0) < counts.verified - 1)
    #expect(fifth.stderr.contains("snapshot: 1 App Store file merged without parsing"))
    #expect(try Self.rejectReasons(world)["signature"] == 1)
  }
}
