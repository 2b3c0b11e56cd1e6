/// One line of a partial's fields while it is read, with typed accessors that name the line (1-based)
/// when a field is missing or malformed.
package struct PartialFields {
  /// The line's fields, unescaped (`nil` for `\-`).
  package var values: [String?]
  package var line: Int

  /// The fields of line `line`.
  package init(values: [String?], line: Int) {
    self.values = values
    self.line = line
  }

  /// An error at this line.
  package func error(_ reason: String) -> PartialText.FormatError {
    PartialText.FormatError(line: line, reason: reason)
  }

  /// Field `i`, which may be absent (`\-`).
  package func optional(_ i: Int) throws(PartialText.FormatError) -> String? {
    guard i < values.count else { throw error("expected at least \(i + 1) fields, found \(values.count)") }
    return values[i]
  }

  /// Field `i`, present.
  package func text(_ i: Int) throws(PartialText.FormatError) -> String {
    guard let v = try optional(i) else { throw error("field \(i + 1) is absent") }
    return v
  }

  /// Field `i` as a 64-bit integer.
  package func int64(_ i: Int) throws(PartialText.FormatError) -> Int64 {
    let t = try text(i)
    guard let v = Int64(t) else { throw error("field \(i + 1) '\(t)' is not an integer") }
    return v
  }

  /// Field `i` as an integer.
  package func int(_ i: Int) throws(PartialText.FormatError) -> Int { Int(try int64(i)) }

  /// Field `i` as a comma-separated list of integers (empty: none).
  package func list(_ i: Int) throws(PartialText.FormatError) -> [Int64] {
    let t = try text(i)
    if t.isEmpty { return [] }
    var out: [Int64] = []
    for part in t.split(separator: ",", omittingEmptySubsequences: false) {
      guard let v = Int64(part) else { throw error("field \(i + 1) has '\(part)', not an integer") }
      out.append(v)
    }
    return out
  }

  /// Field `i` as a store.
  package func store(_ i: Int) throws(PartialText.FormatError) -> Store {
    let t = try text(i)
    guard let v = Store(rawValue: t) else { throw error("unknown store '\(t)'") }
    return v
  }

  /// Field `i` as an ISO 4217 code.
  package func currency(_ i: Int) throws(PartialText.FormatError) -> Currency {
    let t = try text(i)
    guard let v = Currency.named(t) else { throw error("unknown currency '\(t)'") }
    return v
  }

  /// Field `i` as a currency handle (table index + 1; an empty field is 0, none).
  package func handle(_ i: Int) throws(PartialText.FormatError) -> UInt16 {
    try text(i).isEmpty ? 0 : UInt16(try currency(i).tableIndex + 1)
  }

  /// Field `i` as a calendar date.
  package func date(_ i: Int) throws(PartialText.FormatError) -> CivilDate {
    let t = try text(i)
    guard let v = CivilDate.parse(t) else { throw error("field \(i + 1) '\(t)' is not a date") }
    return v
  }

  /// Field `i` as an instant in milliseconds, or `nil` when absent.
  package func instant(_ i: Int) throws(PartialText.FormatError) -> Instant? {
    guard try optional(i) != nil else { return nil }
    return Instant(ms: try int64(i))
  }
}
