/// One day of an arm's cumulative curve: revenue per assigned user so far, in the reporting currency.
package struct DailyPoint: Sendable, Equatable {
  /// The report day (config time zone).
  package var day: CivilDate
  /// Days since the first enrolment day (0 on `enrollStart`).
  package var dayIndex: Int
  /// Users assigned on or before this day.
  package var assigned: Int
  /// Reporting-currency proceeds of credited charges on or before this day.
  package var cumulativeProceedsMinor: Int64
  /// `cumulativeProceedsMinor / assigned`, rounded half-even; `nil` while nobody is assigned.
  package var revenuePerAssignedMinor: Int64?
}
