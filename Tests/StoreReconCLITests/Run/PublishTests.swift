import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCLI
@testable import StoreReconRun

/// Reports are published whole: a run killed at any point leaves the previous complete report (or
/// none), never a folder mixed from two runs; a second run into one `--out` waits or refuses; the
/// temporary folders of dead runs are removed; `mail` refuses a folder that does not match its manifest.
@Suite(.serialized) struct PublishTests {
  /// Names in the output folder's parent that belong to `out`: `out`, `out.previous`, `out.tmp-…`, `out.lock`.
  static func siblings(_ world: RunWorld) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: world.directory.path)
      .filter { $0 == "out" || $0.hasPrefix("out.") }.sorted()
  }

  /// Whether `folder` is absent or matches its manifest.
  static func wholeOrAbsent(_ folder: String) -> String? {
    guard FileManager.default.fileExists(atPath: folder) else { return nil }
    do {
      try ManifestCheck.verify(folder: folder)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func aRunKilledAtRandomPointsNeverLeavesAMixedFolder() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // Two complete runs: the faster (warm) one bounds the random kill points.
    let clock = ContinuousClock()
    var duration = Duration.seconds(3600)
    for _ in 0..<2 {
      let started = clock.now
      let complete = try world.run([])
      duration = min(duration, clock.now - started)
      #expect(complete.status == 0, "\(complete.stderr)")
    }
    #expect(Self.wholeOrAbsent(world.out.path) == nil)
    let durationMs = Int(
      duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    let args = [
      "run", "--config", world.config.path, "--date", "2026-11-29", "--out", world.out.path, "--quiet",
    ]
    var generator = SystemRandomNumberGenerator()
    var killedWhileRunning = 0
    for trial in 0..<20 {
      let delayMs = Int.random(in: 0...max(1, durationMs * 9 / 10), using: &generator)
      let running = try Binary.start(args)
      Thread.sleep(forTimeInterval: Double(delayMs) / 1000)
      if running.process.isRunning { killedWhileRunning += 1 }
      kill(running.process.processIdentifier, SIGKILL)
      _ = try Binary.finish(running)
      let context = "trial \(trial), killed after \(delayMs) ms: \(try Self.siblings(world))"
      #expect(Self.wholeOrAbsent(world.out.path) == nil, "\(context)")
      #expect(Self.wholeOrAbsent(world.out.path + ".previous") == nil, "\(context)")
      // The previous complete report is always there, as out or (between the two renames) out.previous.
      #expect(
        FileManager.default.fileExists(atPath: world.out.path + "/manifest.json")
          || FileManager.default.fileExists(atPath: world.out.path + ".previous/manifest.json"), "\(context)")
    }
    #expect(killedWhileRunning >= 10)
    // The next complete run removes what the killed ones left and publishes whole.
    let last = try world.run([])
    #expect(last.status == 0, "\(last.stderr)")
    #expect(try Self.siblings(world) == ["out", "out.lock", "out.previous"])
    #expect(Self.wholeOrAbsent(world.out.path) == nil)
    #expect(Self.wholeOrAbsent(world.out.path + ".previous") == nil)
  }

  @Test func aSecondRunIntoTheSameFolderWaitsThenRefusesWith75() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // This process holds the folder's lock, as a run writing into it would.
    let held = try #require(try FileLock.acquire(path: world.out.path + ".lock", timeoutSeconds: 0) { _ in })
    let refused = try world.run(["--lock-timeout", "0"])
    #expect(refused.status == 75, "\(refused.stderr)")
    #expect(
      refused.stderr
        == "storerecon: error: another storerecon run is writing \(world.out.path) (it holds \(world.out.path).lock; "
        + "waited 0 s); try again when it has finished\n")
    let clock = ContinuousClock()
    let started = clock.now
    let waited = try world.run(["--lock-timeout", "1"])
    #expect(clock.now - started >= .seconds(1))
    #expect(waited.status == 75, "\(waited.stderr)")
    #expect(!FileManager.default.fileExists(atPath: world.out.path))
    held.release()
    #expect(try world.run(["--lock-timeout", "0"]).status == 0)
  }

  @Test func staleTemporaryFoldersOfDeadRunsAreRemovedAtStart() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // A process that has ended: its pid is free.
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = world.out.path + ".tmp-\(ended.processIdentifier)-abc123"
    let alive = world.out.path + ".tmp-\(FileLock.processID)-def456"
    for folder in [dead, alive] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: folder + "/.findings.csv.tmp-1"))
    }
    let out = try world.run([])
    #expect(out.status == 0, "\(out.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: alive))  // this test process is alive
    #expect(try Self.siblings(world) == ["out", "out.lock", "out.tmp-\(FileLock.processID)-def456"])
  }

  @Test func aFolderThatIsNotAReportIsNeverReplaced() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try FileManager.default.createDirectory(at: world.out, withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: world.out.appendingPathComponent("notes.txt"))
    let out = try world.run([])
    #expect(out.status == 74, "\(out.stderr)")
    #expect(
      out.stderr
        == "storerecon: error: cannot write the reports to \(world.out.path): it holds files but no "
        + "manifest.json, so it is not a storerecon report folder that a run may replace; choose another "
        + "--out or empty it\n")
    #expect(try Self.siblings(world) == ["out", "out.lock"])
    #expect(
      try String(contentsOf: world.out.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me")
  }

  @Test func reportsAreCreated0640InFolders0750WhateverTheUmask() throws {
    let world = try RunWorld()
    defer { world.remove() }
    // The umask is inherited: run the binary under umask 000 through a shell.
    let binary = try #require(Binary.path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "umask 000 && exec \"$@\"", "sh", binary, "run", "--config", world.config.path, "--date",
      "2026-11-29", "--out", world.out.path, "--quiet",
    ]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let files = FileManager.default
    func mode(_ path: String) throws -> Int {
      (try files.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
    #expect(try mode(world.out.path) == 0o750)
    var checked = 0
    for entry in try files.subpathsOfDirectory(atPath: world.out.path) {
      let path = world.out.path + "/" + entry
      var isDirectory: ObjCBool = false
      _ = files.fileExists(atPath: path, isDirectory: &isDirectory)
      #expect(try mode(path) == (isDirectory.boolValue ? 0o750 : 0o640), "\(entry)")
      checked += 1
    }
    #expect(checked > 8)
  }

  @Test func mailRefusesAFolderThatDoesNotMatchItsManifest() throws {
    let world = try RunWorld(extra: [
      "mail": [
        "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": "smtp://127.0.0.1:1",
        "tls": "none",
      ]
    ])
    defer { world.remove() }
    #expect(try world.run([]).status == 0)
    let mail = ["mail", "--config", world.config.path, "--out", world.out.path, "--dry-run", "--quiet"]
    #expect(try Binary.run(mail).status == 0)
    // A findings.csv from elsewhere beside this run's manifest.
    try Data("finding_key\n".utf8).write(to: world.out.appendingPathComponent("findings.csv"))
    let refused = try Binary.run(mail)
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(
      refused.stderr
        == "storerecon: error: \(world.out.path) does not match its manifest.json: findings.csv has 12 bytes, "
        + "the manifest says \(try Self.manifestBytes(world, "findings.csv")); the folder is not one run's "
        + "reports, not mailed\n")
  }

  static func manifestBytes(_ world: RunWorld, _ name: String) throws -> Int64 {
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json"))) as? [String: Any]
    let outputs = manifest?["outputs"] as? [[String: Any]] ?? []
    return (outputs.first { $0["file"] as? String == name }?["bytes"] as? NSNumber)?.int64Value ?? -1
  }
}
