package import StoreReconCore
import StoreReconReports

/// One cell value of a worksheet. The value decides the cell's type and its cached format.
package enum XLSXCell: Sendable, Equatable {
  /// Nothing is written: the cell stays blank.
  case empty
  /// Text in the default format.
  case text(String)
  /// Bold text: table headers and section titles.
  case bold(String)
  /// Text wrapped in its cell (a wide column of long text: details, what to do).
  case wrapped(String)
  /// A link: a hyperlink where it is a web address (`http://`, `https://`) and the sheet has fewer than
  /// Excel's 65,530 links, else the same text.
  case link(String)
  /// Bold text on a solid fill, colours as `0xRRGGBB` (the run's status: red ALERT, green OK).
  case filled(String, background: UInt32, font: UInt32)
  /// A whole number with thousands separators, `#,##0` (counts, line numbers).
  case integer(Int64)
  /// Money: minor units written as a number in the currency's own format (`#,##0.00` for USD).
  case money(minor: Int64, currency: Currency)
  /// A calendar date, written as an Excel date (`yyyy-mm-dd`).
  case date(CivilDate)
  /// An instant, written as an Excel date and time in UTC (`yyyy-mm-dd hh:mm:ss`).
  case instant(Instant)
  /// A ratio shown as a percentage (`0.00%`): a statistic such as a conversion rate, never money.
  case percent(Double)
  /// A plain number in the General format: a statistic, never money.
  case number(Double)
}
