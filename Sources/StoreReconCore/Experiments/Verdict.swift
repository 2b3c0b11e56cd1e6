/// What the readout says about an arm, decided on its reporting-currency row.
package enum Verdict: String, Sendable, CaseIterable {
  /// The first arm: the baseline every other arm is compared with.
  case control
  /// Assigned counts do not match the intended weights (SRM p < 0.001): something is broken in
  /// assignment or logging, so no arm is named a winner.
  case srm
  /// Some credited charge has no FX rate: revenue in the reporting currency is incomplete, so no arm
  /// is named a winner (see the FX gaps in the summary and the manifest).
  case fxGap = "fx_gap"
  /// The arm (or the control it is compared with) has not lived a full billing cycle: too early.
  case immature
  /// Revenue per assigned user is higher than control's, and the 95 % interval of the difference
  /// excludes zero.
  case leading
  /// Revenue per assigned user is lower than control's, and the interval of the difference excludes zero.
  case trailing
  /// The interval of the difference includes zero: no difference shown yet.
  case inconclusive
}
