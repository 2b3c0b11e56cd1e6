/// What the demo generator knows about one arm of its price experiment, from what it generated:
/// computed while the world is built, independently of the readout code.
public struct DemoArmTruth: Sendable, Equatable {
  /// The arm id.
  public var armId: String
  /// Users with an assignment to the arm.
  public var assigned = 0
  /// Assigned users with a credited purchase that began with a free trial, and those of them who paid.
  public var trials = 0
  public var trialConversions = 0
  /// Assigned users with at least one credited paid charge.
  public var paidConversions = 0
  /// Credited paid charges after the first of their purchase.
  public var renewals = 0
  /// Chains of assigned users bought before the assignment (never credited).
  public var chainsNotCredited = 0
  /// Per currency code: paid conversions (by the user's first paid charge), renewals, gross (tax included,
  /// before refunds) and proceeds (after tax, fee and refunds), in minor units.
  public var paidConversionsByCurrency: [String: Int] = [:]
  public var renewalsByCurrency: [String: Int] = [:]
  public var grossByCurrency: [String: Int64] = [:]
  public var proceedsByCurrency: [String: Int64] = [:]
  /// Gross and proceeds converted charge by charge into USD (half-even), summed.
  public var reportingGrossMinor: Int64 = 0
  public var reportingProceedsMinor: Int64 = 0

  /// Creates an empty truth for `armId`.
  public init(armId: String) { self.armId = armId }
}
