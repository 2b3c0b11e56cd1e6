/// Exact conversions of JSON number text (no `Double` on the way).
package enum JSONNumber {
  /// The integer `text` denotes, or `nil` when it is not a JSON number, has a non-zero fraction,
  /// or does not fit an `Int64`. `12.000` and `1.2e1` are 12.
  package static func exactInt64(_ text: String) -> Int64? {
    convert(text, rounding: false)
  }

  /// The integer nearest to `text` (halves rounded away from zero), or `nil` when it is not a JSON
  /// number or does not fit. `1697679936049.7297` is 1697679936050.
  package static func roundedInt64(_ text: String) -> Int64? {
    convert(text, rounding: true)
  }

  private static func convert(_ text: String, rounding: Bool) -> Int64? {
    var text = text
    return text.withUTF8 { convert($0, rounding: rounding) }
  }
}
