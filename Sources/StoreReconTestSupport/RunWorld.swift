package import Foundation
import StoreReconCore
import StoreReconDemo

/// A small demo world on disk whose config the test extends (mail, alerts), for runs of the binary.
package struct RunWorld {
  package let directory: URL
  package var config: URL { directory.appendingPathComponent("storerecon.json") }
  package var out: URL { directory.appendingPathComponent("out") }

  /// Generates a seeded world of `users` users as of 2026-11-29 and merges `extra` into its config.
  ///
  /// A small world's last App Store transaction may fall before noon of 2026-11-29; `coverDay` appends a
  /// sandbox transaction at 13:00 UTC (no finding, no revenue) so the inputs cover the day.
  package init(users: Int = 400, extra: [String: Any] = [:], coverDay: Bool = true) throws {
    directory = try Binary.temporaryDirectory()
    var options = DemoOptions()
    options.users = users
    _ = try DemoWorld.generate(options, into: directory.path)
    try setConfig(extra)
    if coverDay {
      let at = CivilDate(year: 2026, month: 11, day: 29).startUTC.ms + 13 * 3_600_000
      let line =
        "{\"transactionId\":\"9900000000000001\",\"originalTransactionId\":\"9900000000000001\",\"bundleId\":\"com.acme.app\",\"productId\":\"com.acme.pro.monthly\",\"purchaseDate\":\(at),\"originalPurchaseDate\":\(at),\"expiresDate\":\(at + 30 * 86_400_000),\"quantity\":1,\"type\":\"Auto-Renewable Subscription\",\"inAppOwnershipType\":\"PURCHASED\",\"environment\":\"Sandbox\",\"transactionReason\":\"PURCHASE\",\"price\":4990,\"currency\":\"EUR\"}\n"
      let handle = try FileHandle(
        forWritingTo: directory.appendingPathComponent("exports/apple/transactions.jsonl"))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(line.utf8))
      try handle.close()
    }
  }

  /// Merges `extra` into the config's top-level keys.
  package func setConfig(_ extra: [String: Any]) throws {
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: config)) as? [String: Any] ?? [:]
    for (k, v) in extra { root[k] = v }
    try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: config)
  }

  /// `storerecon run --config … --date … --out … --quiet` plus `args`, optionally with extra environment.
  package func run(_ args: [String], date: String = "2026-11-29", environment: [String: String] = [:]) throws
    -> Binary.Output
  {
    try Binary.run(
      ["run", "--config", config.path, "--date", date, "--out", out.path, "--quiet"] + args,
      environment: environment.mapValues { $0.isEmpty ? nil : $0 })  // an empty value removes the variable
  }

  package func file(_ name: String) throws -> String {
    try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
  }

  /// Every file a run wrote under `out` (a folder in ``directory``), by its path in it; the manifest's
  /// timings (the per-input `elapsedMs` and the closing `timingsMs`) left out, so that two runs over the
  /// same inputs compare equal.
  package func reports(in out: String) throws -> [String: Data] {
    try RunWorld.reports(under: directory.appendingPathComponent(out))
  }

  /// ``reports(in:)`` of the run that wrote into `root`.
  package static func reports(under root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue
      else { continue }
      let name = String(url.path.dropFirst(root.path.count))
      var data = try Data(contentsOf: url)
      if name.hasSuffix("manifest.json") {
        let text = String(decoding: data, as: UTF8.self)
        let timings = text.range(of: "\"timingsMs")
        let kept = text[..<(timings?.lowerBound ?? text.endIndex)].split(separator: "\n").filter {
          !$0.contains("\"elapsedMs\"")
        }
        data = Data(kept.joined(separator: "\n").utf8)
      }
      files[name] = data
    }
    return files
  }

  package func remove() { try? FileManager.default.removeItem(at: directory) }
}
