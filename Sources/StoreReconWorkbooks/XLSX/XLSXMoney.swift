import StoreReconCore
import StoreReconReports

/// The single place where money leaves exact integers: a cell in an XLSX file can only hold a number
/// as an IEEE double.
enum XLSXMoney {
  /// The number written into a money cell: `minor` ÷ 10^`digits`, as the double nearest to that exact
  /// decimal value.
  ///
  /// No arithmetic is done in floating point: the amount is rendered exactly as a decimal string
  /// (`-1234.567` for −1234567 fils) by ``Currency/render(_:scale:)`` and parsed once by the correctly
  /// rounding `Double(String)`. For |minor| < 2^53 this is the same value as the IEEE division
  /// `Double(minor) / 10^digits` of two exactly representable numbers (the tests check both ways). Excel
  /// shows 15 significant digits, so every amount below 10^15 minor units displays exactly. Returns `nil`
  /// only if the rendered text were not a number, which `render` never produces.
  static func cellValue(minor: Int64, digits: Int) -> Double? {
    // Both operands exact (|minor| ≤ 2^53, 10^digits ≤ 10^18 = 2^18 · 5^18 with 5^18 < 2^53): the IEEE
    // division is correctly rounded, the same double the decimal text parses to, without the text.
    if minor.magnitude <= 1 << 53, Pow10.exponents.contains(digits) {
      return Double(minor) / Double(Pow10.int64(digits))
    }
    return Double(Currency.render(minor, scale: digits))
  }

  /// The cell value of an amount in `currency` (digits from its ISO 4217 minor units; none for codes without).
  static func cellValue(minor: Int64, currency: Currency) -> Double? {
    cellValue(minor: minor, digits: currency.minorUnits ?? 0)
  }

  /// The Excel number format for a currency with `digits` minor-unit digits: `#,##0`, `#,##0.00`,
  /// `#,##0.000`, `#,##0.0000`.
  static func numberFormat(digits: Int) -> String {
    digits > 0 ? "#,##0." + String(repeating: "0", count: digits) : "#,##0"
  }

  /// Characters the amount takes when shown in its format (for column widths).
  static func displayWidth(minor: Int64, digits: Int) -> Int {
    let integerDigits = max(Currency.decimalDigits(minor.magnitude) - digits, 1)
    let separators = (integerDigits - 1) / 3
    return integerDigits + separators + (digits > 0 ? digits + 1 : 0) + (minor < 0 ? 1 : 0)
  }
}
