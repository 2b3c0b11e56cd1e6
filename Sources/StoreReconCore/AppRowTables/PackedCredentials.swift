/// The credentials of a run, packed: 40 bytes a row, store keys and order ids as ``PackedID``s in a pool
/// the table may share with the ledger; the optional `linked_store_key` and `order_id` beside the rows,
/// only for the rows that have them.
package struct PackedCredentials: Sendable {
  /// One credential row.
  package struct Row: Sendable {
    var userId: String
    package var key: PackedID
    var store: Store
    /// ``PackedRecord/none`` when not known.
    var claimedAt: Int64

    /// Creates the value from its fields.
    package init(userId: String, key: PackedID, store: Store, claimedAt: Int64) {
      self.userId = userId
      self.key = key
      self.store = store
      self.claimedAt = claimedAt
    }
  }

  var rows: [Row] = []
  /// Rows (ascending) with an `order_id`, and their order ids.
  private var orderRows: [UInt32] = []
  private var orderIds: [PackedID] = []
  /// Rows (ascending) with a `linked_store_key`, and their keys.
  private var linkedRows: [UInt32] = []
  private var linkedIds: [PackedID] = []
  /// Where keys and order ids are pooled.
  package let pool: TextPool

  /// An empty table with its own pool.
  package init() { pool = TextPool() }

  /// An empty table pooling keys in `pool` (a ledger builder's).
  package init(pool: TextPool) { self.pool = pool }

  /// A table of `credentials`.
  package init(_ credentials: [Credential]) {
    self.init()
    for c in credentials { append(c) }
  }

  /// The number of rows.
  package var count: Int { rows.count }

  /// Adds one row.
  package mutating func append(_ c: Credential) {
    append(
      userId: c.userId, key: PackedID.intern(c.storeKey, in: pool), store: c.store,
      claimedAt: c.claimedAt?.ms ?? PackedRecord.none,
      linked: c.linkedStoreKey.map { PackedID.intern($0, in: pool) } ?? .absent,
      order: c.orderId.map { PackedID.intern($0, in: pool) } ?? .absent)
  }

  /// Adds one row of packed values (`linked` and `order` ``PackedID/absent`` when the row has none).
  package mutating func append(
    userId: String, key: PackedID, store: Store, claimedAt: Int64, linked: PackedID, order: PackedID
  ) {
    let row = UInt32(truncatingIfNeeded: rows.count)
    rows.append(Row(userId: userId, key: key, store: store, claimedAt: claimedAt))
    if !linked.isAbsent {
      linkedRows.append(row)
      linkedIds.append(linked)
    }
    if !order.isAbsent {
      orderRows.append(row)
      orderIds.append(order)
    }
  }

  /// Makes room for about `n` rows (memory is only used as rows arrive).
  package mutating func reserve(_ n: Int) { rows.reserveCapacity(n) }

  private static func find(_ row: Int, _ rows: [UInt32], _ ids: [PackedID]) -> PackedID {
    var lower = 0
    var upper = rows.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if Int(rows[middle]) < row { lower = middle + 1 } else { upper = middle }
    }
    return lower < rows.count && Int(rows[lower]) == row ? ids[lower] : .absent
  }

  /// Row `i`'s `order_id`, or ``PackedID/absent``.
  func order(_ i: Int) -> PackedID { PackedCredentials.find(i, orderRows, orderIds) }

  /// Row `i`'s `linked_store_key`, or ``PackedID/absent``.
  func linked(_ i: Int) -> PackedID { PackedCredentials.find(i, linkedRows, linkedIds) }

  /// Row `i` as a ``Credential`` (the origin is not kept).
  package subscript(i: Int) -> Credential {
    let r = rows[i]
    return Credential(
      store: r.store, storeKey: r.key.string(pool: pool), userId: r.userId,
      linkedStoreKey: linked(i).optionalString(pool: pool), orderId: order(i).optionalString(pool: pool),
      claimedAt: r.claimedAt == PackedRecord.none ? nil : Instant(ms: r.claimedAt),
      origin: Origin(file: -1, line: 0))
  }

  /// The same rows pooled in `pool` (a copy unless it is already this table's).
  func sharing(pool: TextPool) -> PackedCredentials {
    if self.pool === pool { return self }
    var copy = PackedCredentials(pool: pool)
    copy.rows.reserveCapacity(rows.count)
    for i in rows.indices { copy.append(self[i]) }
    return copy
  }
}
