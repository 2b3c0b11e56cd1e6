/// Everything the readout knows about one arm: its table rows, its verdict, its comparison with
/// control, its cumulative curve and the counts behind what was not credited.
package struct ArmReadout: Sendable {
  /// The arm as configured.
  package var arm: ExperimentArm
  /// The reporting-currency row (`scope` reporting).
  package var reporting: ArmRow
  /// One row per charge currency (`scope` currency), sorted by currency code.
  package var currencies: [ArmRow]
  /// The verdict (control's is `control` unless the experiment is `srm`, `fx_gap` or `immature`).
  package var verdict: Verdict
  /// Revenue per assigned user minus control's; `nil` for control itself.
  package var difference: Difference?
  /// Welch's t interval of revenue per assigned user (reporting minor units), the bootstrap's cross-check.
  package var welch: Interval?
  /// The per-user sample behind the reporting row (size, mean, variance in reporting minor units).
  package var sample: SampleSummary
  /// Cumulative revenue per assigned user by day, from the first enrolment day through the report day.
  package var series: [DailyPoint]
  /// Credited renewals by renewal number: `renewalsByNumber[k]` charges with renewal number k (k ≥ 1;
  /// index 0 counts first paid charges).
  package var renewalsByNumber: [Int]
  /// Chains of assigned users that were not credited because the user was assigned after the chain's
  /// original purchase.
  package var chainsAssignedAfterPurchase: Int
  /// Chains of assigned users never counted: sandbox, license-tester or Family Sharing.
  package var chainsExcluded: Int
  /// Credited chains whose product only another arm offers (a sign of leakage between arms).
  package var chainsOfOtherArmsProducts: Int
  /// The share of the bootstrap's resamples in which this arm's revenue per assigned user is the
  /// highest of all arms, control included (``ArmComparison/probabilityBest(_:)``); `nil` if unknown.
  package var probabilityBest: Double? = nil
  /// When the arm's `mature_share` reaches the experiment's `maturityThreshold` if no further purchase
  /// is credited: the end of the first billing period of the credited subscription that takes the share
  /// over it. `nil` when the arm is mature already or has no credited subscription.
  package var maturesAt: Instant? = nil
}
