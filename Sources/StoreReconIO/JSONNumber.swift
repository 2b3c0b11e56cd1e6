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

  /// Parses `-?digits(.digits)?([eE][+-]?digits)?` and scales to an integer.
  package static func convert(_ bytes: UnsafeBufferPointer<UInt8>, rounding: Bool) -> Int64? {
    let n = bytes.count
    var i = 0
    var negative = false
    if i < n && bytes[i] == 0x2D {
      negative = true
      i += 1
    }
    // Significant digits and where the decimal point sits among them.
    var digits: [UInt8] = []
    var pointAt = -1
    var sawDigit = false
    while i < n {
      let b = bytes[i]
      if b >= 0x30 && b <= 0x39 {
        sawDigit = true
        if !(digits.isEmpty && b == 0x30 && pointAt < 0) || pointAt >= 0 {
          digits.append(b &- 0x30)
        }
      } else if b == 0x2E && pointAt < 0 {
        pointAt = digits.count
      } else {
        break
      }
      i += 1
    }
    guard sawDigit else { return nil }
    var exponent = 0
    if i < n && (bytes[i] == 0x65 || bytes[i] == 0x45) {
      i += 1
      var expNegative = false
      if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) {
        expNegative = bytes[i] == 0x2D
        i += 1
      }
      var sawExpDigit = false
      while i < n, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
        sawExpDigit = true
        if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- 0x30) }
        i += 1
      }
      guard sawExpDigit else { return nil }
      if expNegative { exponent = -exponent }
    }
    guard i == n else { return nil }
    // value = digits × 10^(exponent − fractionDigits)
    let fractionDigits = pointAt < 0 ? 0 : digits.count - pointAt
    let shift = exponent - fractionDigits
    let integerCount = digits.count + shift  // digits before the point after shifting
    var value: Int64 = 0
    var index = 0
    while index < max(integerCount, 0) {
      let d = index < digits.count ? Int64(digits[index]) : 0
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(negative ? -d : d)
      guard !o1 && !o2 else { return nil }
      value = s
      index += 1
    }
    // The remaining digits are the fraction.
    var firstFraction: UInt8 = 0
    var anyFraction = false
    var position = max(integerCount, 0)
    let leadingZeros = integerCount < 0 ? -integerCount : 0
    if leadingZeros > 0 { position = 0 }
    var fractionIndex = 0
    while position < digits.count {
      let d = digits[position]
      if fractionIndex == leadingZeros { firstFraction = d }
      if d != 0 { anyFraction = true }
      fractionIndex += 1
      position += 1
    }
    if !anyFraction { return value }
    guard rounding else { return nil }
    if leadingZeros == 0 && firstFraction >= 5 {
      let (r, o) = value.addingReportingOverflow(negative ? -1 : 1)
      guard !o else { return nil }
      return r
    }
    return value
  }
}
