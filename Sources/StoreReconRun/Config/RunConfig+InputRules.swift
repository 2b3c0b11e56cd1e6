import Foundation

extension RunConfig {
  /// Reads `history` (docs/history.md: a PostgreSQL URI or a SQLite path), `allowOutside` (a Boolean) and `damaged` (`maxRejectPercent`: a number from 0 to 100 with at
  /// most two decimals; `maxRejects` and `minRejects`: whole numbers).
  package static func parseInputRules(
    _ root: [String: Any], into config: inout RunConfig, fail: (String) -> RunError
  ) throws(RunError) {
    if let history = root["history"] {
      guard let text = history as? String, !text.isEmpty else {
        throw fail("history must be a PostgreSQL URI (postgresql://…) or the path of a SQLite file")
      }
      config.history = HistoryLocation.isPostgresURI(text) ? .postgres(text) : .sqlite(config.resolve(text))
    }
    if let allow = root["allowOutside"] {
      guard isJSONBool(allow), let flag = allow as? Bool else {
        throw fail("allowOutside must be true or false")
      }
      config.allowOutside = flag
    }
    guard let value = root["damaged"] else { return }
    guard let damaged = value as? [String: Any] else { throw fail("damaged must be an object") }
    if let share = damaged["maxRejectPercent"] {
      guard !isJSONBool(share), let number = share as? NSNumber,
        let basisPoints = Int64(exactly: (number.doubleValue * 100).rounded()),
        (0...10_000).contains(basisPoints), abs(number.doubleValue * 100 - Double(basisPoints)) < 1e-6
      else {
        throw fail("damaged.maxRejectPercent must be a number from 0 to 100 with at most two decimals")
      }
      config.damaged.maxRejectBasisPoints = basisPoints
    }
    for key in ["maxRejects", "minRejects"] {
      guard let v = damaged[key] else { continue }
      guard !isJSONBool(v), let n = v as? Int, n >= 0 else {
        throw fail("damaged.\(key) must be a non-negative whole number")
      }
      if key == "maxRejects" { config.damaged.maxRejects = n } else { config.damaged.minRejects = n }
    }
  }
}
