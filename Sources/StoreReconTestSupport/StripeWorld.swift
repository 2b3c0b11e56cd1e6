package import Foundation

/// A small Stripe world on disk for runs of the binary: web subscriptions with one planted problem of
/// each kind, controls that must give no finding, and the same objects written in either of Stripe's
/// API shapes (before and after 2025-03-31), with long ids and fields in varying order.
package struct StripeWorld {
  /// Stripe's API shape to write.
  package enum Shape: Sendable { case acacia, basil }

  package let directory: URL
  package var config: URL { directory.appendingPathComponent("storerecon.json") }
  package var out: URL { directory.appendingPathComponent("out") }

  /// 2026-`month`-`day` at `hour`:00 UTC in Unix seconds.
  package static func at(_ month: Int, _ day: Int, hour: Int = 12) -> Int64 {
    var days = 0
    for m in 1..<month { days += [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] }
    days += day - 1
    return 1_767_225_600 + Int64(days) * 86_400 + Int64(hour) * 3_600
  }

  /// A long, UUID-like Stripe id: `prefix_` and 24 characters derived from `name`.
  package static func id(_ prefix: String, _ name: String) -> String {
    var hash: UInt64 = 1_469_598_103_934_665_603
    for b in name.utf8 { hash = (hash ^ UInt64(b)) &* 1_099_511_628_211 }
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    var text = "1"
    var h = hash
    for i in 0..<23 {
      text.append(alphabet[Int(h % 62)])
      h = h / 62 == 0 ? hash &* UInt64(i + 7) : h / 62
    }
    return "\(prefix)_\(text)\(name.filter { $0.isLetter })"
  }

  /// Writes the world in `shape`; `extraLines` are appended to the objects file as they are.
  package init(shape: Shape, extraLines: [String] = []) throws {
    directory = try Binary.temporaryDirectory()
    let fm = FileManager.default
    for sub in ["exports/stripe", "exports/apple", "app"] {
      try fm.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    var lines = StripeWorld.objects(shape).map(StripeWorld.json)
    lines.append(contentsOf: extraLines)
    try write("exports/stripe/objects.jsonl", lines.joined(separator: "\n") + "\n")
    try writeAppRows()
  }

  /// Writes `text` to `path` inside the world.
  package func write(_ path: String, _ text: String) throws {
    try Data(text.utf8).write(to: directory.appendingPathComponent(path))
  }

  /// `storerecon run` on the world as of 2026-11-29.
  package func run(_ args: [String] = []) throws -> Binary.Output {
    try Binary.run(
      ["run", "--config", config.path, "--date", "2026-11-29", "--out", out.path, "--quiet"] + args)
  }

  /// A report of the run.
  package func file(_ name: String) throws -> String {
    try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
  }

  package func remove() { try? FileManager.default.removeItem(at: directory) }

  /// One object as a JSON line, members in the order `JSONSerialization` writes them.
  package static func json(_ object: [String: Any]) -> String {
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}

extension StripeWorld {
  /// Sets the config's `fees`.
  package func setFees(_ fees: [String: Any]) throws { try setConfig(["fees": fees]) }

  /// Merges `extra` into the config's top-level keys.
  package func setConfig(_ extra: [String: Any]) throws {
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: config)) as? [String: Any] ?? [:]
    for (key, value) in extra { root[key] = value }
    try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: config)
  }
}
