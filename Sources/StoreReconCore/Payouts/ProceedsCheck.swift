/// Whether an amount converted at a written exchange rate is what was paid, allowing for the rounding a
/// store does: the rate is written rounded to its digits (the rate used lies within half a unit of its
/// last digit), and the result is rounded to the paid currency's minor unit.
///
/// All in integers, 128-bit: `owed` (minor units of the owed currency, `dOwed` digits) at rate
/// `m / 10^s` is `owed × m × 10^dPaid / 10^(dOwed + s)` minor units of the paid currency. A paid amount
/// `P` is allowed when `|owed × m × 10^dPaid − P × 10^(dOwed+s)| ≤ 10^(dOwed+s) / 2 + |owed| × 10^dPaid / 2`.
package struct ProceedsCheck: Sendable, Equatable {
  /// `owed × rate` rounded half-even to the paid currency's minor units.
  package let expected: Int64
  /// `2 × owed × m × 10^dPaid`.
  let twiceExact: Int128
  /// `10^(dOwed + s)`.
  let scale: Int128
  /// `|owed| × 10^dPaid`: twice the most the rate's rounding can move the result, in the same units.
  let rateSlack: Int128

  /// The check of `owed` minor units of `from` at `rate` into `to`; `nil` for a currency without minor
  /// units or an amount out of range.
  package init?(owed: Int64, from: Currency, rate: DecimalRate, to: Currency) {
    guard let dOwed = from.minorUnits, let dPaid = to.minorUnits, dOwed + rate.scale <= 30 else { return nil }
    var tenPow: Int128 = 1
    for _ in 0..<(dOwed + rate.scale) { tenPow *= 10 }
    let paidPow = Int128(Pow10.int64(dPaid))
    let (exact, o1) = Int128(owed).multipliedReportingOverflow(by: Int128(rate.mantissa))
    guard !o1 else { return nil }
    let (scaled, o2) = exact.multipliedReportingOverflow(by: paidPow)
    guard !o2 else { return nil }
    scale = tenPow
    twiceExact = scaled * 2
    rateSlack = Int128(owed.magnitude) * paidPow
    // Half-even division of scaled by tenPow.
    var q = scaled / tenPow
    var r = scaled % tenPow
    if r < 0 {
      q -= 1
      r += tenPow
    }
    if r * 2 > tenPow || (r * 2 == tenPow && q % 2 != 0) { q += 1 }
    guard let value = Int64(exactly: q) else { return nil }
    expected = value
  }

  /// Whether `paid` minor units are what the rate gives, within the two roundings.
  package func allows(_ paid: Int64) -> Bool {
    let gap = twiceExact - 2 * Int128(paid) * scale
    return (gap < 0 ? -gap : gap) <= scale + rateSlack
  }
}
