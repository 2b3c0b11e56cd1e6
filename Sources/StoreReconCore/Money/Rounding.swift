/// How a computed amount (a fee, a prorated refund, an FX conversion) is rounded to whole minor units.
package enum RoundingRule: String, Sendable, Codable {
  /// Round half to even (banker's rounding): the default.
  case halfEven = "half_even"
  /// Round half away from zero.
  case halfUp = "half_up"
  /// Toward negative infinity.
  case down

  /// `numerator / denominator` rounded by this rule. `denominator` must be positive.
  package func divide(_ numerator: Int64, by denominator: Int64) -> Int64 {
    precondition(denominator > 0, "rounding divisor must be positive")
    var quotient = numerator / denominator
    var remainder = numerator % denominator
    if remainder < 0 {
      quotient -= 1
      remainder += denominator
    }
    // Now numerator = quotient * denominator + remainder with 0 <= remainder < denominator.
    switch self {
    case .down:
      return quotient
    case .halfUp, .halfEven:
      let twice = remainder * 2
      if twice > denominator { return quotient + 1 }
      if twice < denominator { return quotient }
      if self == .halfEven { return quotient % 2 == 0 ? quotient : quotient + 1 }
      return numerator >= 0 ? quotient + 1 : quotient
    }
  }

  /// `amount × numerator / denominator`, rounded by this rule, computed without intermediate overflow
  /// for amounts and ratios of money size (128-bit intermediate).
  package func scale(_ amount: Int64, numerator: Int64, denominator: Int64) -> Int64 {
    let product = amount.multipliedFullWidth(by: numerator)
    if (product.high == 0 && product.low <= UInt64(Int64.max))
      || (product.high == -1 && product.low > UInt64(Int64.max))
    {
      return divide(Int64(bitPattern: product.low), by: denominator)
    }
    // Very large products: fall back to long division on magnitudes (rare: checked here, not above).
    precondition(denominator > 0, "RoundingRule.scale: the denominator is positive")
    let negative = (amount < 0) != (numerator < 0)
    let magnitude = amount.magnitude.multipliedFullWidth(by: numerator.magnitude)
    precondition(
      magnitude.high < UInt64(denominator),
      "RoundingRule.scale: amount × numerator / denominator fits an Int64")
    let (q, r) = UInt64(denominator).dividingFullWidth(magnitude)
    precondition(q <= UInt64(Int64.max), "RoundingRule.scale: amount × numerator / denominator fits an Int64")
    var result = Int64(q)
    let twice = r * 2
    let d = UInt64(denominator)
    switch self {
    case .down:
      if negative && r > 0 { result += 1 }
    case .halfUp:
      if twice >= d { result += 1 }
    case .halfEven:
      if twice > d || (twice == d && result % 2 == 1) { result += 1 }
    }
    return negative ? -result : result
  }
}
