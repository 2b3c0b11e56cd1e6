/// An exchange rate written as a decimal string, kept exactly: `mantissa / 10^scale`.
///
/// `1.0845` is mantissa 10845, scale 4; trailing zeros after the point are dropped (`1.50` is 15, 1).
/// No floating point is involved: conversions multiply by the mantissa and divide by a power of ten.
package struct DecimalRate: Hashable, Sendable, CustomStringConvertible {
  /// The digits as an integer.
  package var mantissa: Int64
  /// Digits after the point (0…``maximumScale``).
  package var scale: Int

  /// The most digits after the point a rate may have.
  package static let maximumScale = 12

  /// Creates a rate `mantissa / 10^scale`.
  package init(mantissa: Int64, scale: Int) {
    self.mantissa = mantissa
    self.scale = scale
  }

  /// The rate 1.
  package static let one = DecimalRate(mantissa: 1, scale: 0)

  /// Why a rate text was refused.
  package enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case notADecimal(String)
    case notPositive(String)
    case tooPrecise(String)
    case tooLarge(String)

    package var description: String {
      switch self {
      case .notADecimal(let text): return "rate '\(text)' is not a decimal number such as 1.0845"
      case .notPositive(let text): return "rate '\(text)' must be greater than zero"
      case .tooPrecise(let text):
        return "rate '\(text)' has more than \(DecimalRate.maximumScale) digits after the point"
      case .tooLarge(let text): return "rate '\(text)' is too large"
      }
    }
  }

  /// Parses a positive decimal (`1.0845`, `0.006712`, `3`, `.5`); no sign, exponent or separators.
  package static func parse(_ text: String) throws(ParseError) -> DecimalRate {
    var mantissa: Int64 = 0
    var scale = 0
    var sawPoint = false
    var sawDigit = false
    var pendingZeros = 0  // zeros after the point not yet folded in (they may be trailing)
    for byte in text.utf8 {
      if byte == 0x2E {
        guard !sawPoint else { throw .notADecimal(text) }
        sawPoint = true
        continue
      }
      guard byte >= 0x30 && byte <= 0x39 else { throw .notADecimal(text) }
      sawDigit = true
      let digit = Int64(byte - 0x30)
      if sawPoint && digit == 0 {
        pendingZeros += 1
        continue
      }
      for _ in 0..<pendingZeros {
        let (m, o) = mantissa.multipliedReportingOverflow(by: 10)
        guard !o else { throw .tooLarge(text) }
        mantissa = m
        scale += 1
      }
      pendingZeros = 0
      let (m, o1) = mantissa.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(digit)
      guard !o1 && !o2 else { throw .tooLarge(text) }
      mantissa = s
      if sawPoint { scale += 1 }
    }
    guard sawDigit else { throw .notADecimal(text) }
    guard mantissa > 0 else { throw .notPositive(text) }
    guard scale <= maximumScale else { throw .tooPrecise(text) }
    return DecimalRate(mantissa: mantissa, scale: scale)
  }

  /// The rate written with its own digits: `1.0845`, `3`.
  package var description: String { Currency.render(mantissa, scale: scale) }
}
