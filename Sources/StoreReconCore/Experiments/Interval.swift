/// A two-sided interval of a statistic (a confidence interval, or a percentile interval of a bootstrap).
package struct Interval: Sendable, Equatable {
  /// Lower and upper bound.
  package var low: Double
  package var high: Double

  /// Creates an interval.
  package init(low: Double, high: Double) {
    self.low = low
    self.high = high
  }

  /// Whether zero lies outside the interval, above it (`1`), below it (`-1`) or inside it (`0`).
  package var signExcludingZero: Int {
    if low > 0 { return 1 }
    if high < 0 { return -1 }
    return 0
  }
}
