/// One paid charge as revenue recognition sees it: its amount, its service period [start, end) fixed
/// when it was charged, and the refunds that reverse it (docs/reports.md#revenue_recognitioncsv).
///
/// The cumulative amount recognised by an instant is `round_half_even(amount × elapsed / period)`, in
/// exact integer arithmetic; each refund's share is reversed by the same rule on the refund's day.
package struct ChargeSchedule: Sendable, Equatable {
  /// A refund of part or all of the charge: when, and how much (positive minor units).
  package struct Refund: Sendable, Equatable {
    package var at: Int64
    package var amount: Int64

    /// Creates a refund.
    package init(at: Int64, amount: Int64) {
      self.at = at
      self.amount = amount
    }
  }

  /// The charge instant and start of the service period (ms).
  package var start: Int64
  /// The end of the service period (ms); equal to ``start`` for a one-time product or consumable.
  package var end: Int64
  /// The amount charged, in minor units (positive).
  package var amount: Int64
  /// The refunds of the charge, as of T.
  package var refunds: [Refund] = []

  /// Creates a schedule; an end before the start is taken as the start (recognised at once).
  package init(start: Int64, end: Int64, amount: Int64, refunds: [Refund] = []) {
    self.start = start
    self.end = max(end, start)
    self.amount = amount
    self.refunds = refunds
  }

  /// The refunds' total (`overflow` set when it does not fit an `Int64`).
  package func refundedMinor(overflow: inout Bool) -> Int64 {
    var total: Int64 = 0
    for r in refunds { total.add(r.amount, overflow: &overflow) }
    return total
  }

  /// How much of `x` is recognised by the boundary `b`: ratably over the period, or all of it at the
  /// charge instant for a one-time product (counted when the charge is before `b`, or at it with
  /// `inclusive`).
  @inline(__always)
  func share(_ x: Int64, by b: Int64, inclusive: Bool) -> Int64 {
    let period = end - start
    if period == 0 { return start < b || (inclusive && start == b) ? x : 0 }
    let elapsed = min(max(b - start, 0), period)
    return RoundingRule.halfEven.scale(x, numerator: elapsed, denominator: period)
  }

  /// The cumulative amount recognised by the boundary `b`: the charge's share, less each refund's share
  /// for the refunds before `b` (or at it, with `inclusive`). A month's (or a day's) recognition is the
  /// difference of this at its two ends, so the parts of a charge add up to the charge less its refunds.
  ///
  /// - Parameters:
  ///   - inclusive: whether events at `b` itself count (T's own closing: every record at or before T
  ///     is in; a month or day end is the next one's start and excludes it).
  ///   - overflow: set when the refunds' shares do not fit an `Int64` (the run stops on it).
  package func recognized(by b: Int64, inclusive: Bool = false, overflow: inout Bool) -> Int64 {
    var total = share(amount, by: b, inclusive: inclusive)
    for r in refunds where r.at < b || (inclusive && r.at == b) {
      let (difference, o) = total.subtractingReportingOverflow(share(r.amount, by: b, inclusive: inclusive))
      total = difference
      if o { overflow = true }
    }
    return total
  }

  /// The first boundary after which nothing changes any more: the period's end, or the last refund.
  package var settledAt: Int64 {
    var last = end
    for r in refunds { last = max(last, r.at) }
    return last
  }
}
