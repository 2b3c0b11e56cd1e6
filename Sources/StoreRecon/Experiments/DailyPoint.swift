/// One day of an arm's cumulative curve: revenue per assigned user so far, in the reporting currency.
public struct DailyPoint: Sendable, Equatable {
  /// The report day (config time zone).
  public var day: CivilDate
  /// Days since the first enrolment day (0 on `enrollStart`).
  public var dayIndex: Int
  /// Users assigned on or before this day.
  public var assigned: Int
  /// Reporting-currency proceeds of credited charges on or before this day.
  public var cumulativeProceedsMinor: Int64
  /// `cumulativeProceedsMinor / assigned`, rounded half-even; `nil` while nobody is assigned.
  public var revenuePerAssignedMinor: Int64?
}
