/// Why an amount could not be turned into exact minor units.
package enum MoneyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text is not a decimal number.
  case notANumber(String)
  /// The amount has more fraction digits than the currency allows, and dropping them would lose money.
  case tooPrecise(String, currency: String, digits: Int)
  /// The currency has no minor unit in ISO 4217 (XAU, XDR, XXX…).
  case noMinorUnit(String)
  /// The currency code is not in ISO 4217 (current or recently withdrawn).
  case unknownCurrency(String)
  /// The amount is beyond ``MoneyBound/rowMinor`` (10^15 minor units), or does not fit a 64-bit count
  /// of minor units at all.
  case overflow(String)

  package var description: String {
    switch self {
    case .notANumber(let text): return "amount '\(text)' is not a decimal number"
    case .tooPrecise(let text, let currency, let digits):
      return "amount '\(text)' has more digits than \(currency) allows (\(digits) after the point)"
    case .noMinorUnit(let code): return "currency \(code) has no minor unit and cannot hold money"
    case .unknownCurrency(let code): return "unknown currency '\(code)'"
    case .overflow(let text): return "amount '\(text)' is too large: \(MoneyBound.words)"
    }
  }
}
