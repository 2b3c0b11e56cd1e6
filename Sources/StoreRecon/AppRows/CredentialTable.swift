/// The credentials of a run, packed: store keys and order ids as ``PackedID``s in a pool the table may
/// share with the ledger.
public struct CredentialTable: Sendable {
  /// One credential row.
  struct Row: Sendable {
    var userId: String
    var key: PackedID
    /// `linked_store_key` and `order_id`, or ``PackedID/absent``.
    var linked: PackedID
    var order: PackedID
    /// ``PackedRecord/none`` when not known.
    var claimedAt: Int64
    var store: Store
  }

  var rows: [Row] = []
  /// Where keys and order ids are pooled.
  let pool: TextPool

  /// An empty table with its own pool.
  public init() { pool = TextPool() }

  /// An empty table pooling keys in `pool` (a ledger builder's).
  init(pool: TextPool) { self.pool = pool }

  /// A table of `credentials`.
  public init(_ credentials: [Credential]) {
    self.init()
    for c in credentials { append(c) }
  }

  /// The number of rows.
  public var count: Int { rows.count }

  /// Adds one row.
  public mutating func append(_ c: Credential) {
    rows.append(
      Row(
        userId: c.userId, key: PackedID.intern(c.storeKey, in: pool),
        linked: c.linkedStoreKey.map { PackedID.intern($0, in: pool) } ?? .absent,
        order: c.orderId.map { PackedID.intern($0, in: pool) } ?? .absent,
        claimedAt: c.claimedAt?.ms ?? PackedRecord.none, store: c.store))
  }

  /// Row `i` as a ``Credential`` (the origin is not kept).
  public subscript(i: Int) -> Credential {
    let r = rows[i]
    return Credential(
      store: r.store, storeKey: r.key.string(pool: pool), userId: r.userId,
      linkedStoreKey: r.linked.optionalString(pool: pool), orderId: r.order.optionalString(pool: pool),
      claimedAt: r.claimedAt == PackedRecord.none ? nil : Instant(ms: r.claimedAt),
      origin: Origin(file: -1, line: 0))
  }

  /// The same rows pooled in `pool` (a copy unless it is already this table's).
  func sharing(pool: TextPool) -> CredentialTable {
    if self.pool === pool { return self }
    var copy = CredentialTable(pool: pool)
    copy.rows.reserveCapacity(rows.count)
    for i in rows.indices { copy.append(self[i]) }
    return copy
  }
}
