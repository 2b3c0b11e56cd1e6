/// A parsed JSON value. Numbers keep their text so that 64-bit integers and fractional
/// milliseconds can be read exactly (see ``JSONNumber``).
package enum JSONValue: Sendable, Equatable {
  /// An object; for a repeated key the last value wins.
  case object([String: JSONValue])
  /// An array.
  case array([JSONValue])
  /// A string, escapes resolved.
  case string(String)
  /// A number, as its JSON text (`-12`, `1697679936049.7297`, `1e3`).
  case number(String)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// The member `key` of an object; `nil` when this is not an object, the key is absent, or its value is `null`.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self, let value = members[key] else { return nil }
    if case .null = value { return nil }
    return value
  }

  /// The string, or `nil` when this is not a string.
  package var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// A string's text, or a number's JSON text (ids sometimes arrive as numbers); `nil` otherwise.
  package var text: String? {
    switch self {
    case .string(let text), .number(let text): return text
    default: return nil
    }
  }

  /// The Boolean, or `nil` when this is not `true`/`false`.
  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, or `nil` when this is not an array.
  package var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The members, or `nil` when this is not an object.
  package var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// An exact integer from a number or a numeric string (`"1704112948000"`); `nil` when fractional or out of range.
  package var int64Value: Int64? {
    guard let text else { return nil }
    return JSONNumber.exactInt64(text)
  }

  /// The nearest integer (halves away from zero) from a number or a numeric string; `nil` when not a number.
  package var roundedInt64Value: Int64? {
    guard let text else { return nil }
    return JSONNumber.roundedInt64(text)
  }

  /// A short rendering for messages: strings and numbers as their text, others by kind.
  package var brief: String {
    switch self {
    case .string(let text), .number(let text): return RawText.truncated(text)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
