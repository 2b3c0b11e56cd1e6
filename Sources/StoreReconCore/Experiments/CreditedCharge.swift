package import StoreReconPlatform

/// One credited charge: a row of `experiment_lineage.csv`, the audit trail of the arm table.
package struct CreditedCharge: Sendable, Equatable {
  package var experimentId: String
  package var armId: String
  package var userId: String
  package var store: Store
  /// The chain the charge belongs to (a linked Play chain keeps its own key).
  package var chainKey: String
  package var transactionId: String
  /// 0 for the lineage's first paid charge, then 1, 2, … (every charge after the first is a renewal).
  package var renewalNumber: Int
  package var chargedAt: Instant
  package var currency: Currency
  /// What the customer paid, tax included.
  package var grossMinor: Int64
  /// Estimated proceeds after tax, fee and any refund of this charge.
  package var proceedsMinor: Int64
  /// `proceedsMinor` in the reporting currency; `nil` when the FX table has no rate (a gap).
  package var reportingMinor: Int64?
}

/// Every credited charge of one readout, kept packed (72 bytes a row: ids stay numbers, users are
/// numbers into the experiment's user list); each element unpacks into a ``CreditedCharge``.
package struct CreditedCharges: RandomAccessCollection, Sendable {
  /// One packed row.
  package struct Packed: Sendable, BitwiseCopyable {
    package var chain: PackedID
    package var transaction: PackedID
    /// The user's number in ``Storage/users``.
    package var user: UInt32
    package var charged: Int64
    package var gross: Int64
    package var proceeds: Int64
    /// `Int64.min`: no reporting amount (an FX gap).
    package var reporting: Int64
    package var renewal: UInt32
    package var currency: UInt16
    package var arm: UInt8
    /// The store, as ``LedgerStorage/slot(_:)`` numbers it.
    package var store: UInt8
  }

  /// The store a packed row's store number stands for.
  @inline(__always)
  package static func store(_ slot: UInt8) -> Store {
    switch slot {
    case 0: return .appStore
    case 1: return .play
    default: return .stripe
    }
  }

  /// The rows and the names they point to (shared by copies; read-only once built). The rows are kept
  /// in segments, one after another (the parts of the crediting pass), never copied into one block.
  package final class Storage: @unchecked Sendable {
    package let experimentId: String
    package let armIds: [String]
    package let users: [String]
    package let pool: TextPool
    package let segments: [GrowableBuffer<Packed>]
    /// Rows in all segments.
    package let count: Int

    init(
      experimentId: String, armIds: [String], users: [String], pool: TextPool,
      segments: [GrowableBuffer<Packed>] = []
    ) {
      self.experimentId = experimentId
      self.armIds = armIds
      self.users = users
      self.pool = pool
      self.segments = segments
      count = segments.reduce(0) { $0 + $1.count }
    }

    /// Row `position` of all segments.
    package func item(_ position: Int) -> Packed {
      precondition(position >= 0 && position < count, "lineage row out of range")
      var p = position
      var k = 0
      while p >= segments[k].count {
        p -= segments[k].count
        k += 1
      }
      return segments[k][p]
    }
  }

  package let storage: Storage

  init(storage: Storage) { self.storage = storage }

  /// No rows.
  package init() { storage = Storage(experimentId: "", armIds: [], users: [], pool: TextPool()) }

  package var startIndex: Int { 0 }
  package var endIndex: Int { storage.count }

  /// Row `position`, unpacked.
  package subscript(position: Int) -> CreditedCharge {
    let s = storage
    let item = s.item(position)
    return CreditedCharge(
      experimentId: s.experimentId, armId: s.armIds[Int(item.arm)], userId: s.users[Int(item.user)],
      store: CreditedCharges.store(item.store), chainKey: item.chain.string(pool: s.pool),
      transactionId: item.transaction.string(pool: s.pool), renewalNumber: Int(item.renewal),
      chargedAt: Instant(ms: item.charged), currency: Currency(tableIndex: Int(item.currency)),
      grossMinor: item.gross, proceedsMinor: item.proceeds,
      reportingMinor: item.reporting == Int64.min ? nil : item.reporting)
  }
}
