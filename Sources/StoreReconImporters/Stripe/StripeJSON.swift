import StoreReconCore
import StoreReconIO

/// A JSON value the Stripe reader takes fields from: a parsed tree (``JSONValue``, the full path) or a
/// node of a line scanned in place (``StripeTape``, the lean path). The fields are read by one set of
/// functions over either, so both paths read the same values and reject with the same reasons in the
/// same order (docs/inputs.md#stripe-objects).
protocol StripeJSON {
  /// The member `key` of an object; `nil` when this is not an object, the key is absent, or its value is `null`.
  subscript(key: String) -> Self? { get }
  /// A string's text, or a number's JSON text; `nil` otherwise.
  var text: String? { get }
  /// An exact integer from a number or a numeric string; `nil` when fractional, out of range or not one.
  var int64Value: Int64? { get }
  /// The elements, or `nil` when this is not an array.
  var arrayValue: [Self]? { get }
  /// A short rendering for messages (``JSONValue/brief``).
  var brief: String { get }
  /// Whether this is an object.
  var isObject: Bool { get }
  /// Whether this is the empty string.
  var isEmptyString: Bool { get }
  /// `true`/`false`, or those words as strings; `nil` for anything else.
  var flag: Bool? { get }
  /// The value's fingerprint: equal values (members in any order) have equal fingerprints
  /// (``StripeFingerprint``).
  var fingerprint: UInt64 { get }
}

/// The field readers of ``JSONValue`` (`JSONValue+Fields.swift`), with the same reasons, for either kind
/// of value.
extension StripeJSON {
  /// A text field that must be there.
  func requiredText(_ key: String) throws(RowRejection) -> String {
    guard let text = try optionalText(key) else { throw RowRejection("missing \(key)") }
    return text
  }

  /// A text field that may be absent (an empty string is absent).
  func optionalText(_ key: String) throws(RowRejection) -> String? {
    guard let value = self[key] else { return nil }
    guard let text = value.text else { throw RowRejection("\(key) is not a string (found \(value.brief))") }
    return text.isEmpty ? nil : text
  }

  /// A whole number that may be absent (number or numeric string).
  func optionalInt64(_ key: String) throws(RowRejection) -> Int64? {
    guard let value = self[key] else { return nil }
    if value.isEmptyString { return nil }
    guard let number = value.int64Value else {
      throw RowRejection("\(key) '\(value.brief)' is not a whole number")
    }
    return number
  }

  /// A Boolean that may be absent (`true`/`false`, or those words as strings).
  func optionalBool(_ key: String) throws(RowRejection) -> Bool? {
    guard let value = self[key] else { return nil }
    guard let flag = value.flag else { throw RowRejection("\(key) '\(value.brief)' is not true or false") }
    return flag
  }

  /// An object field that may be absent.
  func optionalObject(_ key: String) throws(RowRejection) -> Self? {
    guard let value = self[key] else { return nil }
    guard value.isObject else { throw RowRejection("\(key) is not an object (found \(value.brief))") }
    return value
  }

  /// An array field that may be absent.
  func optionalArray(_ key: String) throws(RowRejection) -> [Self]? {
    guard let value = self[key] else { return nil }
    guard let elements = value.arrayValue else {
      throw RowRejection("\(key) is not an array (found \(value.brief))")
    }
    return elements
  }
}

extension JSONValue: StripeJSON {
  var isObject: Bool {
    if case .object = self { return true }
    return false
  }

  var isEmptyString: Bool { self == .string("") }

  var flag: Bool? {
    switch self {
    case .bool(let flag): return flag
    case .string("true"): return true
    case .string("false"): return false
    default: return nil
    }
  }

  var fingerprint: UInt64 { StripeFingerprint.of(self) }
}
