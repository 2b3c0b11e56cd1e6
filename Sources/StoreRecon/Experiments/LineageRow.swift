/// One credited charge: a row of `experiment_lineage.csv`, the audit trail of the arm table.
public struct LineageRow: Sendable, Equatable {
  public var experimentId: String
  public var armId: String
  public var userId: String
  public var store: Store
  /// The chain the charge belongs to (a linked Play chain keeps its own key).
  public var chainKey: String
  public var transactionId: String
  /// 0 for the lineage's first paid charge, then 1, 2, … (every charge after the first is a renewal).
  public var renewalNumber: Int
  public var chargedAt: Instant
  public var currency: Currency
  /// What the customer paid, tax included.
  public var grossMinor: Int64
  /// Estimated proceeds after tax, fee and any refund of this charge.
  public var proceedsMinor: Int64
  /// `proceedsMinor` in the reporting currency; `nil` when the FX table has no rate (a gap).
  public var reportingMinor: Int64?
}
