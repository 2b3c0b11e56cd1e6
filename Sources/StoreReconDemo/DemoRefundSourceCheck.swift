/// Checks that the `refunded` finding of every planted refund one source shows names that source in
/// its detail, and no other (docs/rules.md#every-source-of-a-refund).
package enum DemoRefundSourceCheck {
  /// Play: a `refunded` detail names the order's sources as `returned (<sources>) <instant>`.
  static func play(_ source: String) -> String { "returned (\(source)) " }

  /// App Store: the detail's part naming the notifications that know the refund (the part ends at the
  /// detail's end or at its next `; `).
  static let appLogOnly = "; REFUND notification in the app's log"

  /// One line per planted one-source refund (chain key → the words its detail must hold) whose
  /// `refunded` finding is missing or does not hold them; `findings` are the run's (chain key, reason,
  /// detail), in any order.
  package static func misses(
    _ findings: [(chainKey: String, reason: String, detail: String)], expected: [String: String]
  ) -> [String] {
    var details: [String: [String]] = [:]
    for f in findings where f.reason == "refunded" { details[f.chainKey, default: []].append(f.detail) }
    var lines: [String] = []
    for (key, words) in expected.sorted(by: { $0.key < $1.key }) {
      let found = details[key] ?? []
      let named = found.contains { detail in
        guard let range = detail.range(of: words) else { return false }
        let rest = detail[range.upperBound...]
        return !words.hasPrefix(";") || rest.isEmpty || rest.hasPrefix(";")
      }
      guard !named else { continue }
      lines.append(
        "\(key): the refunded finding does not say '\(words)'"
          + (found.first.map { ": \($0)" } ?? " (no refunded finding)"))
    }
    return lines
  }
}
