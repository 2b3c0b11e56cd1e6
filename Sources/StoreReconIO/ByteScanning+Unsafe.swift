// Safety: the buffers point into a record or a chunk and are read within their counts during the call only;
// nothing here keeps a pointer.

// The small byte-level helpers the scanners and importers share, on buffers that point into a record
// or a chunk: valid only while that buffer lives (the caller's record or batch).

/// Small byte-level text helpers for parsing cells without building `String`s.
package enum ByteText {
  /// `bytes` without leading and trailing spaces and tabs.
  package static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  /// Whether `bytes` spell the ASCII word `lowercaseWord`, ignoring ASCII case.
  package static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercaseWord: StaticString)
    -> Bool
  {
    let count = lowercaseWord.utf8CodeUnitCount
    guard bytes.count == count else { return false }
    let word = lowercaseWord.utf8Start
    for i in 0..<count {
      var b = bytes[i]
      if b >= 0x41 && b <= 0x5A { b |= 0x20 }
      if b != word[i] { return false }
    }
    return true
  }

  /// An optionally signed decimal integer (`1704112948`, `-5`); `nil` for anything else or on overflow.
  package static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var i = 0
    var negative = false
    if i < bytes.count && (bytes[i] == 0x2D || bytes[i] == 0x2B) {
      negative = bytes[i] == 0x2D
      i += 1
    }
    guard i < bytes.count else { return nil }
    var value: Int64 = 0
    while i < bytes.count {
      let b = bytes[i]
      guard b >= 0x30 && b <= 0x39 else { return nil }
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(negative ? -Int64(b &- 0x30) : Int64(b &- 0x30))
      guard !o1 && !o2 else { return nil }
      value = s
      i += 1
    }
    return value
  }

  /// `bytes` as a `String` for a message, cut to ``RawText/limit`` bytes.
  package static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    "'\(RawText.truncated(bytes))'"
  }
}

extension RawText {
  /// `bytes` as a `String`, cut to ``limit`` bytes (on a character boundary) with `…` appended when cut.
  package static func truncated(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
    var cut = limit
    while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<cut]), as: UTF8.self) + "…"
  }
}

extension JSONNumber {
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
