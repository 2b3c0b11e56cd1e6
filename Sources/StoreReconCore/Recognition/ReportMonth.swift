/// A calendar month of the report time zone (`2026-11`), numbered so that months subtract.
package struct ReportMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// `year × 12 + month − 1`.
  package var index: Int

  /// The month numbered `index` (`year × 12 + month − 1`).
  package init(index: Int) { self.index = index }

  /// The month `date` falls in.
  package init(_ date: CivilDate) { index = date.year * 12 + date.month - 1 }

  /// The year.
  package var year: Int { index >= 0 ? index / 12 : (index - 11) / 12 }
  /// The month of the year, 1…12.
  package var month: Int { index - year * 12 + 1 }
  /// The month's first day.
  package var firstDay: CivilDate { CivilDate(year: year, month: month, day: 1) }
  /// The month after.
  package var next: ReportMonth { ReportMonth(index: index + 1) }

  /// `2026-11`.
  package var description: String {
    let m = month
    var y = String(year)
    while y.count < 4 { y = "0" + y }
    return y + (m < 10 ? "-0" : "-") + String(m)
  }

  /// Parses `2026-11`; `nil` for anything else.
  package static func parse(_ text: String) -> ReportMonth? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let y = Int(parts[0]),
      let m = Int(parts[1]), (1...12).contains(m)
    else { return nil }
    return ReportMonth(index: y * 12 + m - 1)
  }

  package static func < (lhs: ReportMonth, rhs: ReportMonth) -> Bool { lhs.index < rhs.index }
}
