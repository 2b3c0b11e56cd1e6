import StoreReconPlatform

/// Binomial random variates, exact up to floating-point rounding, from a ``SeededGenerator``.
///
/// `draw(trials: n, probability: p)` is the number of successes in `n` independent trials that each
/// succeed with probability `p`. By symmetry only `p ≤ 0.5` is sampled (X ~ B(n, p) ⇔ n − X ~
/// B(n, 1 − p)); then:
/// - `n·p < 10`: inversion (sequential search from 0 through the cumulative probabilities, the pmf
///   advanced by the ratio f(x)/f(x − 1) = ((n + 1)/x − 1)·p/(1 − p); Kachitvichyanukul & Schmeiser's
///   BINV). Expected cost O(1 + n·p).
/// - otherwise: Hörmann's transformed rejection with squeeze, BTRS (W. Hörmann, "The generation of
///   binomial random variates", J. Statist. Comput. Simul. 46 (1993) 101–110): a uniform pair
///   (u, v) proposes k = ⌊(2a/uₛ + b)·u + c⌋ under a hat that dominates the pmf; most proposals are
///   accepted in the inner box without evaluating the pmf, the rest by comparing log v with
///   log f(k)/f(m) (m the mode) written with Stirling's series (as in Hörmann's BTRD, steps 3.4–3.5).
///   Expected cost O(1) for any n.
///
/// Statistics only: never money.
enum Binomial {
  /// One variate of B(`n`, `p`): 0 when `n` ≤ 0 or `p` ≤ 0, `n` when `p` ≥ 1.
  static func draw(trials n: Int, probability p: Double, using generator: inout SeededGenerator) -> Int {
    guard n > 0, p > 0 else { return 0 }
    guard p < 1 else { return n }
    if p > 0.5 { return n - draw(trials: n, probability: 1 - p, using: &generator) }
    if Double(n) * p < 10 { return inversion(trials: n, probability: p, using: &generator) }
    return transformedRejection(trials: n, probability: p, using: &generator)
  }

  /// BINV, for `0 < p ≤ 0.5` and small `n·p`.
  static func inversion(trials n: Int, probability p: Double, using generator: inout SeededGenerator) -> Int {
    let s = p / (1 - p)
    let a = Double(n + 1) * s
    // f(0) = (1 − p)ⁿ, through log1p: exact enough when p is tiny and n large.
    let zero = Math.exp(Double(n) * Math.log1p(-p))
    while true {
      var u = generator.unit()
      var f = zero
      var x = 0
      while u > f {
        u -= f
        x += 1
        f *= a / Double(x) - s
        // The pmf summed in floating point can fall short of 1 by a few ulps: start again (rare).
        if x > n || f == 0 { break }
      }
      if u <= f && x <= n { return x }
    }
  }

  /// BTRS, for `0 < p ≤ 0.5` and `n·p ≥ 10`.
  static func transformedRejection(
    trials n: Int, probability p: Double, using generator: inout SeededGenerator
  ) -> Int {
    let q = 1 - p
    let nd = Double(n)
    let spq = (nd * p * q).squareRoot()
    let b = 1.15 + 2.53 * spq
    let a = -0.0873 + 0.0248 * b + 0.01 * p
    let c = nd * p + 0.5
    let innerV = 0.92 - 4.2 / b
    let alpha = (2.83 + 5.1 / b) * spq
    let r = p / q
    let m = (Double(n + 1) * p).rounded(.down)
    let nm = nd - m + 1
    // log f(k)/f(m) = h + (n + 1)·Math.log(nm/nk) + (k + ½)·Math.log(nk·r/(k + 1)) − fc(k) − fc(n − k).
    let h = (m + 0.5) * Math.log((m + 1) / (r * nm)) + stirlingTail(Int(m)) + stirlingTail(n - Int(m))
    while true {
      let u = generator.unit() - 0.5
      var v = generator.unit()
      let us = 0.5 - abs(u)
      let kd = ((2 * a / us + b) * u + c).rounded(.down)
      guard kd >= 0 && kd <= nd else { continue }
      if us >= 0.07 && v <= innerV { return Int(kd) }
      v = Math.log(v * alpha / (a / (us * us) + b))
      let nk = nd - kd + 1
      let k = Int(kd)
      let bound =
        h + (nd + 1) * Math.log(nm / nk) + (kd + 0.5) * Math.log(nk * r / (kd + 1)) - stirlingTail(k)
        - stirlingTail(n - k)
      if v <= bound { return k }
    }
  }

  /// fc(k) = log k! − ((k + ½)·Math.log(k + 1) − (k + 1) + ½·log 2π): the tail of Stirling's series,
  /// tabulated for k < 10, else its first four terms in 1/(k + 1) (error below 1e-12).
  @inline(__always)
  static func stirlingTail(_ k: Int) -> Double {
    if k < 10 { return stirlingTable[k] }
    let k1 = Double(k + 1)
    let k1sq = k1 * k1
    return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / 1680 / k1sq) / k1sq) / k1sq) / k1
  }

  /// fc(0) … fc(9).
  static let stirlingTable: [Double] = [
    0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509,
    0.01664469118982119, 0.01387612882307075, 0.01189670994589177, 0.01041126526197209,
    0.009255462182712733, 0.008330563433362871,
  ]
}
