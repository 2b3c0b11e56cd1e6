/// An arm's revenue per assigned user minus control's, in reporting-currency minor units (a statistic).
package struct Difference: Sendable, Equatable {
  /// The point estimate: the arm's mean minus control's mean.
  package var estimate: Double
  /// The 95 % bootstrap percentile interval of the difference (independent resamples of both arms).
  package var bootstrap: Interval?
  /// Welch's 95 % t interval of the difference, the cross-check, and its degrees of freedom.
  package var welch: Interval?
  package var welchDegreesOfFreedom: Double?
  /// The arm's mean over control's minus one (``ArmComparison/lift(arm:control:)``) and its 95 %
  /// bootstrap interval; `nil` when control's revenue per assigned user is zero.
  package var relativeLift: Double? = nil
  package var relativeLiftInterval: Interval? = nil
}
