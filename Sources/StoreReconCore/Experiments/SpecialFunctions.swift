import StoreReconPlatform

/// Regularized incomplete gamma and beta functions: the tails of the chi-square and Student t
/// distributions. Continued fractions by the modified Lentz method (Numerical Recipes, 3rd ed., §6.2
/// and §6.4). Statistics only: never money.
enum SpecialFunctions {
  private static let epsilon = 1e-15
  private static let tiny = 1e-300
  private static let maximumIterations = 10_000

  /// The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x ≥ 0.
  static func upperGammaQ(_ a: Double, _ x: Double) -> Double {
    guard a > 0, x >= 0, x.isFinite else { return x.isInfinite && x > 0 ? 0 : .nan }
    if x == 0 { return 1 }
    let logPower: Double = a * Math.log(x)
    let logPrefix: Double = logPower - x - Math.lgamma(a)
    if x < a + 1 {
      // Series for the lower function P(a, x); Q = 1 − P.
      var term = 1 / a
      var sum = term
      var ap = a
      for _ in 0..<maximumIterations {
        ap += 1
        term *= x / ap
        sum += term
        if abs(term) < abs(sum) * epsilon { break }
      }
      return max(0, 1 - sum * Math.exp(logPrefix))
    }
    var b = x + 1 - a
    var c = 1 / tiny
    var d = 1 / b
    var h = d
    for i in 1...maximumIterations {
      let an = -Double(i) * (Double(i) - a)
      b += 2
      d = an * d + b
      if abs(d) < tiny { d = tiny }
      c = b + an / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let delta = d * c
      h *= delta
      if abs(delta - 1) < epsilon { break }
    }
    return min(1, Math.exp(logPrefix) * h)
  }

  /// The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 ≤ x ≤ 1.
  static func incompleteBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
    guard a > 0, b > 0, x >= 0, x <= 1 else { return .nan }
    if x == 0 || x == 1 { return x }
    let logBeta: Double = Math.lgamma(a + b) - Math.lgamma(a) - Math.lgamma(b)
    let logPowers: Double = a * Math.log(x) + b * Math.log(1 - x)
    let logFront = logBeta + logPowers
    if x < (a + 1) / (a + b + 2) {
      return Math.exp(logFront) * betaFraction(x, a, b) / a
    }
    return 1 - Math.exp(logFront) * betaFraction(1 - x, b, a) / b
  }

  private static func betaFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
    let qab = a + b
    let qap = a + 1
    let qam = a - 1
    var c = 1.0
    var d = 1 - qab * x / qap
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var h = d
    for m in 1...maximumIterations {
      let m = Double(m)
      let m2 = 2 * m
      var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
      d = 1 + aa * d
      if abs(d) < tiny { d = tiny }
      c = 1 + aa / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      h *= d * c
      aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
      d = 1 + aa * d
      if abs(d) < tiny { d = tiny }
      c = 1 + aa / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let delta = d * c
      h *= delta
      if abs(delta - 1) < epsilon { break }
    }
    return h
  }
}
