/// The most money one input row may carry, and the checked sums that never trap
/// (docs/inputs.md#amounts-beyond-the-bound).
///
/// An amount read from a store's export or report beyond ``rowMinor`` (10^15 minor units: ten trillion
/// dollars, a quadrillion yen) is no real charge: its row is rejected at import with that reason. Sums of
/// bounded rows can still overflow an `Int64` only past about 9,000 rows at the bound; those sums are
/// added with ``Swift/Int64/add(_:overflow:)`` and a run whose sum overflows stops with exit 65.
package enum MoneyBound {
  /// The largest magnitude, in minor units (and units, for counts), one input row may hold: 10^15.
  package static let rowMinor: Int64 = 1_000_000_000_000_000

  /// The bound as the sentence a rejected row ends with.
  package static let words = "beyond the 10^15 one row may hold"

  /// Whether |`value`| is within the bound.
  @inline(__always)
  package static func holds(_ value: Int64) -> Bool { value <= rowMinor && value >= -rowMinor }

  /// `a × b` when both it and the product fit the bound, else nil.
  @inline(__always)
  package static func product(_ a: Int64, _ b: Int64) -> Int64? {
    let (p, o) = a.multipliedReportingOverflow(by: b)
    return !o && holds(p) ? p : nil
  }
}

extension Int64 {
  /// Adds `other` in place (wrapping) and sets `overflow` when the true sum does not fit an `Int64`: a
  /// compare and a branch per add, the flag checked once when the sums are done.
  @inline(__always)
  package mutating func add(_ other: Int64, overflow: inout Bool) {
    let (sum, o) = addingReportingOverflow(other)
    self = sum
    if o { overflow = true }
  }

  /// Subtracts `other` in place (wrapping) and sets `overflow` when the true difference does not fit.
  @inline(__always)
  package mutating func subtract(_ other: Int64, overflow: inout Bool) {
    let (difference, o) = subtractingReportingOverflow(other)
    self = difference
    if o { overflow = true }
  }
}
