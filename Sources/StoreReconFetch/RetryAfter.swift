import StoreReconCore

/// The `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date
/// (`Sun, 06 Nov 1994 08:49:37 GMT`, the IMF-fixdate form) from which the wait is counted. The App Store
/// Server API sends a UNIX time in milliseconds instead (its 429 `RateLimitExceededError`): a number
/// of at least ``unixMillisecondsFrom`` is read so.
package enum RetryAfter {
  /// A number this large is a UNIX time in milliseconds (1973-03-03 on), not a wait of 3,000 years.
  package static let unixMillisecondsFrom = 100_000_000_000

  /// The seconds to wait that `value` asks for, counted from `now` (seconds since 1970) for a date;
  /// `nil` when it is neither form. A date in the past asks for no wait.
  package static func seconds(_ value: String, now: Double) -> Double? {
    let text = value.trimmingCharacters(in: " \t")
    if let n = Int(text), n >= unixMillisecondsFrom { return max(0, Double(n) / 1000 - now) }
    if let n = Int(text), n >= 0 { return Double(n) }
    guard let at = date(text) else { return nil }
    return max(0, Double(at) - now)
  }

  /// The IMF-fixdate `text` as seconds since 1970, or `nil`.
  static func date(_ text: String) -> Int64? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]) else {
      return nil
    }
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    guard let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 }) else { return nil }
    let clock = parts[4].split(separator: ":").compactMap { Int($0) }
    guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]),
      (0..<61).contains(clock[2]), (1...CivilDate.daysIn(year: year, month: month)).contains(day)
    else { return nil }
    let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
    return days * 86_400 + Int64(clock[0] * 3600 + clock[1] * 60 + clock[2])
  }
}

extension String {
  /// Without leading and trailing characters of `set`.
  fileprivate func trimmingCharacters(in set: String) -> String {
    let drop: (Character) -> Bool = { set.contains($0) }
    let start = firstIndex { !drop($0) } ?? endIndex
    let end = lastIndex { !drop($0) }.map { index(after: $0) } ?? start
    return start < end ? String(self[start..<end]) : ""
  }
}
