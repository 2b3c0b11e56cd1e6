import StoreReconReports
/// The formats a workbook caches: one libxlsxwriter format per style, created on first use.
enum XLSXStyle: Hashable, Sendable {
  /// Bold text (headers, section titles).
  case bold
  /// Text wrapped in its cell, aligned to the top (long details, what to do).
  case wrapped
  /// `yyyy-mm-dd`.
  case date
  /// `yyyy-mm-dd hh:mm:ss`.
  case dateTime
  /// `0.00%`.
  case percent
  /// A money amount with `digits` decimals (a currency's ISO 4217 minor units).
  case money(digits: Int)

  /// The Excel number format, or `nil` for General.
  var numberFormat: String? {
    switch self {
    case .bold, .wrapped: return nil
    case .date: return "yyyy-mm-dd"
    case .dateTime: return "yyyy-mm-dd hh:mm:ss"
    case .percent: return "0.00%"
    case .money(let digits): return XLSXMoney.numberFormat(digits: digits)
    }
  }
}
