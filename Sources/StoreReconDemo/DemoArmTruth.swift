/// What the demo generator knows about one arm of its price experiment, from what it generated:
/// computed while the world is built, independently of the readout code.
package struct DemoArmTruth: Sendable, Equatable {
  /// The arm id.
  package var armId: String
  /// Users with an assignment to the arm.
  package var assigned = 0
  /// Assigned users with a credited purchase that began with a free trial, and those of them who paid.
  package var trials = 0
  package var trialConversions = 0
  /// Assigned users with at least one credited paid charge.
  package var paidConversions = 0
  /// Credited paid charges after the first of their purchase.
  package var renewals = 0
  /// Chains of assigned users bought before the assignment (never credited).
  package var chainsNotCredited = 0
  /// Per currency code: paid conversions (by the user's first paid charge), renewals, gross (tax included,
  /// before refunds) and proceeds (after tax, fee and refunds), in minor units.
  package var paidConversionsByCurrency: [String: Int] = [:]
  package var renewalsByCurrency: [String: Int] = [:]
  package var grossByCurrency: [String: Int64] = [:]
  package var proceedsByCurrency: [String: Int64] = [:]
  /// Gross and proceeds converted charge by charge into USD (half-even), summed.
  package var reportingGrossMinor: Int64 = 0
  package var reportingProceedsMinor: Int64 = 0

  /// Creates an empty truth for `armId`.
  package init(armId: String) { self.armId = armId }
}
