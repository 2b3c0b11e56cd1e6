import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// The demo world through the whole job: every planted finding reported and nothing else, per kind.
@Suite(.serialized) struct DemoEndToEndTests {
  @Test(arguments: [(UInt64(42), 3000, false), (UInt64(7), 1200, false), (UInt64(42), 2000, true)])
  func findingsMatchThePlantedTruthExactly(seed: UInt64, users: Int, realistic: Bool) throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = DemoOptions()
    options.users = users
    options.seed = seed
    options.realistic = realistic
    let outcome = try DemoRun.execute(options: options, directory: dir.path, progress: MemoryProgress())
    #expect(outcome.missed.isEmpty, "missed: \(outcome.missed.prefix(5))")
    #expect(outcome.unexpected.isEmpty, "unexpected: \(outcome.unexpected.prefix(5))")
    #expect(outcome.exitCode == 0)

    // Precision and recall 1.0 for every kind/reason, and every reason of docs/rules.md is planted.
    let reported = outcome.result.findings
    // The realistic world keeps no notification log (the DuckDB rival has no such rules).
    let logged =
      realistic
      ? Finding.Reason.allCases.filter { !$0.kind.rawValue.hasPrefix("notification_") }
      : Finding.Reason.allCases
    for reason in logged {
      let planted = Set(outcome.truth.planted.filter { $0.reason == reason.rawValue })
      let found = Set(
        reported.filter { $0.reason == reason }.map {
          PlantedFinding(
            kind: $0.kind.rawValue, reason: $0.reason.rawValue, store: $0.store, chainKey: $0.chainKey,
            userId: $0.userId)
        })
      #expect(planted.count >= 2, "\(reason.rawValue) planted \(planted.count)")
      #expect(found == planted, "\(reason.rawValue)")
    }

    // Every deliberately malformed row is rejected, in the file it is in, and nothing else is.
    for input in outcome.result.inputs {
      #expect(input.error == nil)
      // A revoked copy of a transaction in the notification log supersedes the export's older state.
      let kept = input.counts.accepted + input.counts.rejected
      #expect(input.counts.read == kept + input.duplicates + input.superseded, "\(input.path)")
      #expect(input.counts.rejected == outcome.truth.rejectsPerFile[input.path] ?? 0, "\(input.path)")
    }
  }

  @Test func demoCommandAsAUserRunsIt() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = try Binary.run(["demo", "--out", dir.path, "--users", "600", "--seed", "3"])
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.contains("precision 1.0, recall 1.0"))
    #expect(out.stdout.contains("reports: \(dir.path)/reports/2026-11-29"))
    for name in ["findings.csv", "revenue.csv", "counts.csv", "grants.csv", "manifest.json"] {
      #expect(FileManager.default.fileExists(atPath: dir.path + "/reports/2026-11-29/" + name), "\(name)")
    }
    let header = try String(contentsOfFile: dir.path + "/reports/2026-11-29/findings.csv", encoding: .utf8)
      .split(separator: "\n").first
    let expected =
      "finding_key,kind,reason,store,chain_key,user_id,product_id,currency,amount_minor,since,detail,"
      + "what_to_do,docs,state,first_seen,age_days"
    #expect(header.map(String.init) == expected)
    // Progress goes to stderr, one line per phase.
    #expect(out.stderr.contains("storerecon: reconciled"))
    // summary.txt fits 78 columns: a longer line is one unbreakable token (a Play purchase token).
    let summary = try String(contentsOfFile: dir.path + "/reports/2026-11-29/summary.txt", encoding: .utf8)
    let long = summary.split(separator: "\n").filter { $0.count > 78 }
    #expect(long.allSatisfy { !$0.drop { $0 == " " }.contains(" ") }, "\(long)")
  }
}
