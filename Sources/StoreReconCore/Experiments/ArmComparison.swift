/// What a product manager reads first about an arm: its relative lift over control, with an interval,
/// and its probability of being the best arm — both from the bootstrap's resamples already drawn (no
/// new draws: deterministic for the experiment's seed).
///
/// These are statistics, not money. The bootstrap's per-resample means are `Double`s over exact
/// `Int64` sums of minor units (``Bootstrap``), as are the existing intervals of revenue per assigned
/// user; a lift is the dimensionless ratio of two such means minus one, and no amount is ever derived
/// from it. Money itself stays `Int64` everywhere.
package enum ArmComparison {
  /// `arm / control − 1` (0.12 = 12 % more revenue per assigned user); `nil` when control's mean is not
  /// above zero (a lift over nothing is undefined).
  package static func lift(arm: Double, control: Double) -> Double? {
    guard control > 0, arm.isFinite, control.isFinite else { return nil }
    return arm / control - 1
  }

  /// The 95 % percentile interval of the lift over paired resamples (`arm[i]` against `control[i]`,
  /// independent streams per arm); `nil` when any resample's control mean is not above zero.
  package static func liftInterval(arm: [Double], control: [Double]) -> Interval? {
    guard !arm.isEmpty, arm.count == control.count else { return nil }
    var lifts: [Double] = []
    lifts.reserveCapacity(arm.count)
    for (a, c) in zip(arm, control) {
      guard let l = lift(arm: a, control: c) else { return nil }
      lifts.append(l)
    }
    return Bootstrap.percentileInterval(lifts)
  }

  /// Per arm, the share of resamples in which its mean is the highest (arms tied for the highest share
  /// that resample equally); `nil` when the arms' resample counts differ or there are none.
  package static func probabilityBest(_ means: [[Double]]) -> [Double]? {
    guard let iterations = means.first?.count, iterations > 0, means.allSatisfy({ $0.count == iterations })
    else { return nil }
    var wins = [Double](repeating: 0, count: means.count)
    for i in 0..<iterations {
      var best = -Double.infinity
      var leaders: [Int] = []
      for (a, column) in means.enumerated() {
        if column[i] > best {
          best = column[i]
          leaders = [a]
        } else if column[i] == best {
          leaders.append(a)
        }
      }
      for a in leaders { wins[a] += 1 / Double(leaders.count) }
    }
    return wins.map { $0 / Double(iterations) }
  }
}
