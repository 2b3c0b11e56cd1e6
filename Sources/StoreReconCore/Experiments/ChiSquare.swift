/// The chi-square distribution and the sample-ratio-mismatch test built on it.
package enum ChiSquare {
  /// P(X ≥ `statistic`) for X chi-square with `degreesOfFreedom` degrees of freedom: Q(k/2, x/2).
  package static func survival(_ statistic: Double, degreesOfFreedom: Int) -> Double {
    guard degreesOfFreedom > 0 else { return .nan }
    if statistic <= 0 { return 1 }
    return SpecialFunctions.upperGammaQ(Double(degreesOfFreedom) / 2, statistic / 2)
  }

  /// The outcome of a goodness-of-fit test of observed counts against intended weights.
  package struct Test: Sendable, Equatable {
    /// Σ (observed − expected)² / expected.
    package var statistic: Double
    /// Number of categories − 1.
    package var degreesOfFreedom: Int
    /// P(X ≥ statistic) under the intended weights.
    package var pValue: Double
  }

  /// Pearson's goodness-of-fit test of `observed` counts against `weights` (same length, weights > 0);
  /// `nil` with fewer than two categories or no observations.
  package static func goodnessOfFit(observed: [Int], weights: [Int64]) -> Test? {
    guard observed.count == weights.count, observed.count >= 2, weights.allSatisfy({ $0 > 0 }) else {
      return nil
    }
    let total = Double(observed.reduce(0, +))
    guard total > 0 else { return nil }
    let weightSum = Double(weights.reduce(0, +))
    var statistic = 0.0
    for (count, weight) in zip(observed, weights) {
      let expected = total * Double(weight) / weightSum
      let difference = Double(count) - expected
      statistic += difference * difference / expected
    }
    let df = observed.count - 1
    return Test(statistic: statistic, degreesOfFreedom: df, pValue: survival(statistic, degreesOfFreedom: df))
  }
}
