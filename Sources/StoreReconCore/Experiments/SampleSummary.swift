/// Size, mean and sample variance of a per-user value, for Welch's t intervals.
package struct SampleSummary: Sendable, Equatable {
  /// Number of users.
  package var count: Int
  /// Mean value.
  package var mean: Double
  /// Sample variance (divisor count − 1); 0 with fewer than two users.
  package var variance: Double

  /// Creates a summary.
  package init(count: Int, mean: Double, variance: Double) {
    self.count = count
    self.mean = mean
    self.variance = variance
  }

  /// The summary of `users` users of whom only `nonZero` carry a value (everyone else has 0).
  package init(users: Int, nonZero: [Int64]) {
    count = users
    guard users > 0 else {
      mean = 0
      variance = 0
      return
    }
    let total = nonZero.reduce(0.0) { $0 + Double($1) }
    mean = total / Double(users)
    guard users > 1 else {
      variance = 0
      return
    }
    var squares = 0.0
    for value in nonZero {
      let d = Double(value) - mean
      squares += d * d
    }
    squares += Double(users - nonZero.count) * mean * mean
    variance = squares / Double(users - 1)
  }
}
