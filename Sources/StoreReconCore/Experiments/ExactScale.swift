/// Exact integer scaling with one explicit rounding: `amount × factor × 10^up / 10^down`.
///
/// The product is formed in 128 bits (`multipliedFullWidth`), so no intermediate overflows; only a
/// result that does not fit an `Int64` fails (`nil`).
enum ExactScale {
  /// `amount × factor × 10^up / 10^down` rounded by `rounding`; `nil` if the result does not fit.
  /// `factor` must be non-negative; `up` and `down` are 0…18.
  static func apply(
    _ amount: Int64, factor: Int64, up: Int, down: Int, rounding: RoundingRule
  ) -> Int64? {
    guard factor >= 0, (0...18).contains(up), (0...18).contains(down) else { return nil }
    let negative = amount < 0
    var (high, low) = amount.magnitude.multipliedFullWidth(by: UInt64(factor))
    if up > 0 {
      let p = UInt64(Pow10.int64(up))
      let (h1, l1) = low.multipliedFullWidth(by: p)
      let (h2, l2) = high.multipliedFullWidth(by: p)
      let (sum, carry) = l2.addingReportingOverflow(h1)
      guard h2 == 0, !carry else { return nil }
      high = sum
      low = l1
    }
    let divisor = UInt64(Pow10.int64(down))
    let quotientHigh = high / divisor
    let (quotientLow, remainder) = divisor.dividingFullWidth((high % divisor, low))
    guard quotientHigh == 0 else { return nil }
    var magnitude = quotientLow
    if remainder > 0 {
      let rest = divisor - remainder
      let roundAway: Bool
      switch rounding {
      case .down: roundAway = negative
      case .halfUp: roundAway = remainder >= rest
      case .halfEven: roundAway = remainder > rest || (remainder == rest && magnitude % 2 == 1)
      }
      if roundAway { magnitude += 1 }
    }
    guard magnitude <= UInt64(Int64.max) else { return nil }
    return negative ? -Int64(magnitude) : Int64(magnitude)
  }
}
