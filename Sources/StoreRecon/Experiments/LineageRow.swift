/// One credited charge: a row of `experiment_lineage.csv`, the audit trail of the arm table.
///
/// Kept compact (a million rows are usual): ids stay packed and the experiment's and arms' names are
/// shared; the text properties unpack on demand.
public struct LineageRow: Sendable, Equatable {
  /// The names every row of one readout shares.
  final class Names: Sendable {
    let experimentId: String
    let armIds: [String]
    let pool: TextPool

    init(experimentId: String, armIds: [String], pool: TextPool) {
      self.experimentId = experimentId
      self.armIds = armIds
      self.pool = pool
    }
  }

  let names: Names
  let arm: UInt8
  public let store: Store
  let currencyIndex: UInt16
  /// 0 for the lineage's first paid charge, then 1, 2, … (every charge after the first is a renewal).
  public let renewalNumber: Int
  public let userId: String
  let chain: PackedID
  let transaction: PackedID
  let charged: Int64
  /// What the customer paid, tax included.
  public let grossMinor: Int64
  /// Estimated proceeds after tax, fee and any refund of this charge.
  public let proceedsMinor: Int64
  let reporting: Int64

  init(
    names: Names, arm: Int, store: Store, userId: String, chain: PackedID, transaction: PackedID,
    renewalNumber: Int,
    chargedAt: Int64, currency: Currency, grossMinor: Int64, proceedsMinor: Int64, reportingMinor: Int64?
  ) {
    self.names = names
    self.arm = UInt8(truncatingIfNeeded: arm)
    self.store = store
    self.currencyIndex = UInt16(truncatingIfNeeded: currency.tableIndex)
    self.renewalNumber = renewalNumber
    self.userId = userId
    self.chain = chain
    self.transaction = transaction
    self.charged = chargedAt
    self.grossMinor = grossMinor
    self.proceedsMinor = proceedsMinor
    self.reporting = reportingMinor ?? Int64.min
  }

  public var experimentId: String { names.experimentId }
  public var armId: String { names.armIds[Int(arm)] }
  /// The chain the charge belongs to (a linked Play chain keeps its own key).
  public var chainKey: String { chain.string(pool: names.pool) }
  public var transactionId: String { transaction.string(pool: names.pool) }
  public var chargedAt: Instant { Instant(ms: charged) }
  public var currency: Currency { Currency(tableIndex: Int(currencyIndex)) }
  /// `proceedsMinor` in the reporting currency; `nil` when the FX table has no rate (a gap).
  public var reportingMinor: Int64? { reporting == Int64.min ? nil : reporting }

  /// Row order within an arm: user, charge instant, store, chain key, transaction id.
  static func precedes(_ a: LineageRow, _ b: LineageRow) -> Bool {
    if a.userId != b.userId { return a.userId < b.userId }
    if a.charged != b.charged { return a.charged < b.charged }
    if a.store != b.store { return a.store < b.store }
    let c = PackedID.compare(a.chain, b.chain, pool: a.names.pool)
    if c != 0 { return c < 0 }
    return PackedID.less(a.transaction, b.transaction, pool: a.names.pool)
  }

  public static func == (a: LineageRow, b: LineageRow) -> Bool {
    a.experimentId == b.experimentId && a.armId == b.armId && a.userId == b.userId && a.store == b.store
      && a.chainKey == b.chainKey && a.transactionId == b.transactionId && a.renewalNumber == b.renewalNumber
      && a.charged == b.charged && a.currencyIndex == b.currencyIndex && a.grossMinor == b.grossMinor
      && a.proceedsMinor == b.proceedsMinor && a.reporting == b.reporting
  }
}
