/// The Wilson score interval of a proportion (Wilson 1927; Newcombe 1998, method 3).
package enum WilsonInterval {
  /// Φ⁻¹(0.975): the normal quantile of a two-sided 95 % interval.
  package static let z95 = 1.959963984540054

  /// The interval of `successes` out of `trials` at normal quantile `z`; `nil` when `trials` is 0.
  package static func interval(successes: Int, trials: Int, z: Double = z95) -> Interval? {
    guard trials > 0, successes >= 0, successes <= trials else { return nil }
    let n = Double(trials)
    let p = Double(successes) / n
    let z2 = z * z
    let denominator = 1 + z2 / n
    let center = (p + z2 / (2 * n)) / denominator
    let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    return Interval(low: max(0, center - half), high: min(1, center + half))
  }
}
