package import StoreReconCore

/// Reading the fields of a store's JSON object, with the rejection reasons importers report.
///
/// `null` and absent are the same; an empty string counts as absent for text fields. A present
/// field of the wrong kind is rejected (it is not absent, it is wrong).
extension JSONValue {
  /// A text field that must be there: a string, or a number's text (ids sometimes arrive as numbers).
  package func requiredText(_ key: String) throws(RowRejection) -> String {
    guard let text = try optionalText(key) else { throw RowRejection("missing \(key)") }
    return text
  }

  /// A text field that may be absent.
  package func optionalText(_ key: String) throws(RowRejection) -> String? {
    guard let value = self[key] else { return nil }
    guard let text = value.text else { throw RowRejection("\(key) is not a string (found \(value.brief))") }
    return text.isEmpty ? nil : text
  }

  /// A Unix time in milliseconds that must be there (number or numeric string; fractions rounded),
  /// within `window`.
  package func requiredMillis(_ key: String, within window: StoreTimeWindow) throws(RowRejection) -> Instant {
    guard let instant = try optionalMillis(key, within: window) else { throw RowRejection("missing \(key)") }
    return instant
  }

  /// A Unix time in milliseconds that may be absent (number or numeric string; fractions rounded to the nearest ms),
  /// within `window`.
  package func optionalMillis(_ key: String, within window: StoreTimeWindow) throws(RowRejection) -> Instant?
  {
    guard let value = self[key] else { return nil }
    if case .string(let text) = value, text.isEmpty { return nil }
    guard let ms = value.roundedInt64Value, ms > Instant.distantPast.ms, ms < Instant.distantFuture.ms else {
      throw RowRejection("\(key) '\(value.brief)' is not a Unix time in milliseconds")
    }
    if let problem = window.problem(key, ms) { throw RowRejection(problem) }
    return Instant(ms: ms)
  }

  /// An RFC 3339 timestamp that may be absent (`2026-11-29T10:00:00.123Z`), within `window`.
  package func optionalTimestamp(_ key: String, within window: StoreTimeWindow) throws(RowRejection)
    -> Instant?
  {
    guard let text = try optionalText(key) else { return nil }
    guard let instant = Instant.parseISO8601(text) else {
      throw RowRejection("\(key) '\(RawText.truncated(text))' is not an ISO 8601 timestamp with an offset")
    }
    if let problem = window.problem(key, instant.ms) { throw RowRejection(problem) }
    return instant
  }

  /// A whole number that may be absent (number or numeric string).
  package func optionalInt64(_ key: String) throws(RowRejection) -> Int64? {
    guard let value = self[key] else { return nil }
    if case .string(let text) = value, text.isEmpty { return nil }
    guard let number = value.int64Value else {
      throw RowRejection("\(key) '\(value.brief)' is not a whole number")
    }
    return number
  }

  /// A Boolean that may be absent (`true`/`false`, or those words as strings).
  package func optionalBool(_ key: String) throws(RowRejection) -> Bool? {
    guard let value = self[key] else { return nil }
    switch value {
    case .bool(let flag): return flag
    case .string("true"): return true
    case .string("false"): return false
    default: throw RowRejection("\(key) '\(value.brief)' is not true or false")
    }
  }

  /// An object field that may be absent.
  package func optionalObject(_ key: String) throws(RowRejection) -> JSONValue? {
    guard let value = self[key] else { return nil }
    guard case .object = value else { throw RowRejection("\(key) is not an object (found \(value.brief))") }
    return value
  }

  /// An array field that may be absent.
  package func optionalArray(_ key: String) throws(RowRejection) -> [JSONValue]? {
    guard let value = self[key] else { return nil }
    guard let elements = value.arrayValue else {
      throw RowRejection("\(key) is not an array (found \(value.brief))")
    }
    return elements
  }
}
