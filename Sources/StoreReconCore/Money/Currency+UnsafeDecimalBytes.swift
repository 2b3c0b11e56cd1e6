// Safety: the parser reads `bytes[index]` only for `index < bytes.count`, within the call, and keeps
// nothing (an error copies the text into a `String`); no precondition beyond the buffer being valid.

extension Currency {
  /// The byte-level form of ``minor(decimal:)``: parses UTF-8 digits without building a `String`.
  package func minor(decimalBytes bytes: UnsafeBufferPointer<UInt8>) throws(MoneyError) -> Int64 {
    let digits = try digits()
    var index = 0
    let count = bytes.count
    var negative = false
    if index < count && (bytes[index] == 0x2D || bytes[index] == 0x2B) {
      negative = bytes[index] == 0x2D
      index += 1
    }
    var value: Int64 = 0
    var sawDigit = false
    var fraction = 0
    var sawPoint = false
    var overflowed = false
    while index < count {
      let b = bytes[index]
      if b >= 0x30 && b <= 0x39 {
        sawDigit = true
        let d = Int64(b &- 0x30)
        if sawPoint {
          fraction += 1
          if fraction > digits {
            guard d == 0 else {
              throw .tooPrecise(String(decoding: bytes, as: UTF8.self), currency: code, digits: digits)
            }
            index += 1
            continue
          }
        }
        let (m, o1) = value.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.addingReportingOverflow(d)
        overflowed = overflowed || o1 || o2
        value = s
      } else if b == 0x2E && !sawPoint {
        sawPoint = true
      } else {
        throw .notANumber(String(decoding: bytes, as: UTF8.self))
      }
      index += 1
    }
    guard sawDigit else { throw .notANumber(String(decoding: bytes, as: UTF8.self)) }
    let used = min(fraction, digits)
    if used < digits {
      let (m, o) = value.multipliedReportingOverflow(by: Pow10.int64(digits - used))
      overflowed = overflowed || o
      value = m
    }
    guard !overflowed, value <= MoneyBound.rowMinor else {
      throw .overflow(String(decoding: bytes, as: UTF8.self))
    }
    return negative ? -value : value
  }
}
