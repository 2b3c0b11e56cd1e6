/// The months revenue recognition spans, with the instant each starts in the report time zone: from
/// the earliest charge's month to T's month (the month of the report date).
package struct RecognitionCalendar: Sendable {
  /// The first month.
  package let first: ReportMonth
  /// T's month: the last one, whose closing is taken at T itself.
  package let last: ReportMonth
  /// T (ms).
  package let asOf: Int64
  /// `starts[i]`: when month `first + i` starts (ms); one more than the months, for the last one's end.
  let starts: [Int64]

  /// The months from `first` through `last` (at least `last`), their starts worked out by `startOf`
  /// (local midnight starting a day).
  package init(
    first: ReportMonth, last: ReportMonth, asOf: Instant, startOf: (CivilDate) -> Instant
  ) {
    let from = min(first, last)
    self.first = from
    self.last = last
    self.asOf = asOf.ms
    var starts: [Int64] = []
    var m = from
    while m <= last.next {
      starts.append(startOf(m.firstDay).ms)
      m = m.next
    }
    self.starts = starts
  }

  /// The number of months.
  package var count: Int { last.index - first.index + 1 }

  /// The month (as an offset from ``first``) an instant falls in, kept within the calendar: an instant
  /// at T itself (the next day's midnight) belongs to T's month.
  @inline(__always)
  func offset(of ms: Int64) -> Int {
    var lower = 0
    var upper = count - 1
    while lower < upper {
      let middle = (lower + upper + 1) / 2
      if starts[middle] <= ms { lower = middle } else { upper = middle - 1 }
    }
    return lower
  }

  /// The boundary closing month offset `i`: the next month's start, or T for T's month.
  @inline(__always)
  func closing(_ i: Int) -> Int64 { i == count - 1 ? asOf : starts[i + 1] }
}
