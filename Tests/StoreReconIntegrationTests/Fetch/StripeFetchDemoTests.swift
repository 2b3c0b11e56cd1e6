import Foundation
import Testing
import StoreReconCLI
import StoreReconCore
import StoreReconDemo
import StoreReconFetch
import StoreReconPlatform
import StoreReconRun
import StoreReconSettings
import StoreReconTestSupport

/// The demo's web subscriptions served by the loopback Stripe stand-in (stripe_api_server.py) and
/// fetched with `fetch stripe`: a run on what the fetch wrote reports exactly the demo's planted
/// findings and tie-out, as the run on the demo's own files does.
@Suite(.serialized, .enabled(if: StripeFetchWorld.available, StripeFetchWorld.unavailable))
struct StripeFetchDemoTests {
  @Test func aRunOnWhatFetchWroteFindsExactlyTheDemosStripePlants() throws {
    let demo = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: demo) }
    var options = DemoOptions()
    options.users = 1000
    let outcome = try DemoRun.execute(options: options, directory: demo.path, progress: MemoryProgress())
    #expect(outcome.exitCode == 0, "\(outcome.text)")

    // The server holds the demo's objects (an invoice's payments where the stand-in keeps them); the
    // truncated line is no object.
    let world = try StripeFetchWorld()
    defer { world.remove() }
    let text = try String(
      contentsOf: demo.appendingPathComponent(DemoStripeOutputs.objectsPath), encoding: .utf8)
    var objects: [[String: Any]] = []
    for line in text.split(separator: "\n") {
      guard var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        continue
      }
      if object["object"] as? String == "invoice", let payments = object["payments"] as? [String: Any] {
        object["_payments"] = payments["data"]
        object["payments"] = nil
      }
      objects.append(object)
    }
    #expect(objects.count == text.split(separator: "\n").count - 1)
    try world.write("objects.json", objects)
    try world.write("events.json", [Any]())

    // The first fetch, on the demo's T: the objects of the last 365 days, no balance report.
    guard
      let config = try FetchConfig.parse(
        world.fetchObject(stripe: ["backfillDays": 365, "reports": false]),
        baseDirectory: world.directory.path,
        name: "t")
    else {
      Issue.record("no fetch object")
      return
    }
    let t = CivilDate(year: 2026, month: 11, day: 30).startUTC.ms / 1000
    _ = try FetchRun.execute(
      ["stripe"], config: config, known: KnownKeys(), asOf: options.asOf, progress: MemoryProgress(),
      environment: [:], clock: RecordingClock(time: Double(t)))
    // The fetched file beside the demo's own (a config reads inside its folder).
    let fetched = demo.appendingPathComponent("exports/stripe/fetched.jsonl")
    #expect(world.journal().count == 1)
    try FileManager.default.copyItem(
      at: world.into.appendingPathComponent("stripe/objects/" + (world.journal().first ?? "")), to: fetched)

    // The demo's config, reading the fetched objects instead of its own.
    let configURL = demo.appendingPathComponent("storerecon.json")
    let configText = try String(contentsOf: configURL, encoding: .utf8)
    #expect(configText.contains("\"\(DemoStripeOutputs.objectsPath)\""))
    try Data(
      configText.replacingOccurrences(
        of: "\"\(DemoStripeOutputs.objectsPath)\"", with: "\"exports/stripe/fetched.jsonl\""
      )
      .utf8
    ).write(to: configURL)
    let result = try ReconciliationRun.execute(
      ReconciliationRun.Request(
        configPath: configURL.path, date: options.asOf,
        outDirectory: demo.appendingPathComponent("fetched-run").path),
      progress: MemoryProgress())
    let found = Set(
      result.findings.map {
        PlantedFinding(
          kind: $0.kind.rawValue, reason: $0.reason.rawValue, store: $0.store, chainKey: $0.chainKey,
          userId: $0.userId)
      })
    let planted = Set(outcome.truth.planted)
    #expect(planted.filter { $0.store == .stripe }.count == 24)
    #expect(
      found.subtracting(planted).isEmpty, "unexpected: \(found.subtracting(planted).sorted().prefix(5))")
    #expect(planted.subtracting(found).isEmpty, "missed: \(planted.subtracting(found).sorted().prefix(5))")
    let tieOut = DemoTieOutCheck.check(result.tieOut, truth: outcome.truth)
    #expect(tieOut.isExact, "\(tieOut.lines())")
    let stripe = result.inputs.filter { $0.path.hasSuffix("fetched.jsonl") }
    #expect(stripe.count == 1 && stripe.first?.counts.rejected == 0)
  }
}
