/// An arm's revenue per assigned user minus control's, in reporting-currency minor units (a statistic).
public struct Difference: Sendable, Equatable {
  /// The point estimate: the arm's mean minus control's mean.
  public var estimate: Double
  /// The 95 % bootstrap percentile interval of the difference (independent resamples of both arms).
  public var bootstrap: Interval?
  /// Welch's 95 % t interval of the difference, the cross-check, and its degrees of freedom.
  public var welch: Interval?
  public var welchDegreesOfFreedom: Double?
}
