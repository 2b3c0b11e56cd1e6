/// Student and Welch t intervals: the cross-check of the bootstrap intervals on revenue per user.
package enum WelchInterval {
  /// The 95 % t interval of one mean (n − 1 degrees of freedom); `nil` with fewer than two users.
  package static func mean(_ sample: SampleSummary, level: Double = 0.95) -> Interval? {
    guard sample.count >= 2 else { return nil }
    let se = (sample.variance / Double(sample.count)).squareRoot()
    let t = StudentT.quantile(1 - (1 - level) / 2, degreesOfFreedom: Double(sample.count - 1))
    return Interval(low: sample.mean - t * se, high: sample.mean + t * se)
  }

  /// Welch's interval of `treatment.mean − control.mean` with the Welch–Satterthwaite degrees of
  /// freedom; `nil` when either side has fewer than two users. Both variances zero: a zero-width interval.
  package static func difference(_ treatment: SampleSummary, _ control: SampleSummary, level: Double = 0.95)
    -> (interval: Interval, degreesOfFreedom: Double)?
  {
    guard treatment.count >= 2, control.count >= 2 else { return nil }
    let a = treatment.variance / Double(treatment.count)
    let b = control.variance / Double(control.count)
    let estimate = treatment.mean - control.mean
    guard a + b > 0 else { return (Interval(low: estimate, high: estimate), .infinity) }
    let df = (a + b) * (a + b) / (a * a / Double(treatment.count - 1) + b * b / Double(control.count - 1))
    let t = StudentT.quantile(1 - (1 - level) / 2, degreesOfFreedom: df)
    let se = (a + b).squareRoot()
    return (Interval(low: estimate - t * se, high: estimate + t * se), df)
  }
}
