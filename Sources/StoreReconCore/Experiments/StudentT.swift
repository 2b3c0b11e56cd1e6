/// Student's t distribution: the CDF through the incomplete beta function and its quantile by bisection.
package enum StudentT {
  /// P(T ≤ t) for `degreesOfFreedom` > 0 (need not be whole: Welch's df is not).
  package static func cdf(_ t: Double, degreesOfFreedom df: Double) -> Double {
    guard df > 0, !t.isNaN else { return .nan }
    let tail = 0.5 * SpecialFunctions.incompleteBeta(df / (df + t * t), df / 2, 0.5)
    return t >= 0 ? 1 - tail : tail
  }

  /// The `p` quantile (0 < p < 1): the t with P(T ≤ t) = p, to about 1e-12.
  package static func quantile(_ p: Double, degreesOfFreedom df: Double) -> Double {
    guard df > 0, p > 0, p < 1 else { return .nan }
    if p == 0.5 { return 0 }
    if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: df) }
    var low = 0.0
    var high = 1.0
    while cdf(high, degreesOfFreedom: df) < p && high < 1e12 { high *= 2 }
    for _ in 0..<200 {
      let middle = (low + high) / 2
      if cdf(middle, degreesOfFreedom: df) < p { low = middle } else { high = middle }
      if high - low <= 1e-13 * max(1, high) { break }
    }
    return (low + high) / 2
  }
}
