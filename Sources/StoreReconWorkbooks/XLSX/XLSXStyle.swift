import StoreReconReports
/// The formats a workbook caches: one libxlsxwriter format per style, created on first use.
enum XLSXStyle: Hashable, Sendable {
  /// Bold text (headers, section titles).
  case bold
  /// Text wrapped in its cell (long details, what to do).
  case wrapped
  /// No format of its own: the format of a row made taller for wrapped text, so its unformatted cells
  /// sit at the top as the formatted ones do.
  case plain
  /// `yyyy-mm-dd`.
  case date
  /// `yyyy-mm-dd hh:mm:ss`.
  case dateTime
  /// `0.00%`.
  case percent
  /// A money amount with `digits` decimals (a currency's ISO 4217 minor units).
  case money(digits: Int)
  /// A whole number with thousands separators: `#,##0` (counts, line numbers).
  case count
  /// Bold text on a coloured fill (the run's status): `background` and `font` as `0xRRGGBB`.
  case filled(background: UInt32, font: UInt32)

  /// The Excel number format, or `nil` for General.
  var numberFormat: String? {
    switch self {
    case .bold, .wrapped, .filled, .plain: return nil
    case .date: return "yyyy-mm-dd"
    case .dateTime: return "yyyy-mm-dd hh:mm:ss"
    case .percent: return "0.00%"
    case .money(let digits): return XLSXMoney.numberFormat(digits: digits)
    case .count: return "#,##0"
    }
  }

  /// Whether the text is bold.
  var isBold: Bool {
    switch self {
    case .bold, .filled: return true
    default: return false
    }
  }

  /// The fill and font colours (`0xRRGGBB`) of a filled cell, else `nil`.
  var colours: (background: UInt32, font: UInt32)? {
    if case .filled(let background, let font) = self { return (background, font) }
    return nil
  }
}
