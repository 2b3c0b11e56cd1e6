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
