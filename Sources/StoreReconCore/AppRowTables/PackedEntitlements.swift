/// The entitlements of a run, packed: one ``PackedEntitlements/Row`` of 72 bytes each, store keys as
/// ``PackedID``s and product names as numbers, both in pools the table may share with the ledger (so a
/// look-up needs no text). It keeps what the job reads: `updated_at` is checked on reading, not kept.
package struct PackedEntitlements: Sendable {
  /// One entitlement row.
  package struct Row: Sendable {
    package internal(set) var entitlementId: String
    package internal(set) var userId: String
    /// The store key, or ``PackedID/absent``.
    package var key: PackedID
    /// Product name number in ``PackedEntitlements/products``.
    package var product: UInt32
    var startsAt: Int64
    /// ``PackedRecord/none``: no end.
    var expiresAt: Int64
    package var source: EntitlementSource
    var status: EntitlementStatus

    /// Active at `t`: status `active` or `grace`, and no end or an end later than `t`.
    @inline(__always)
    func isActive(at t: Int64) -> Bool {
      guard status == .active || status == .grace else { return false }
      return expiresAt == PackedRecord.none || expiresAt > t
    }

    /// Creates the value from its fields.
    package init(
      entitlementId: String, userId: String, key: PackedID, product: UInt32, startsAt: Int64,
      expiresAt: Int64, source: EntitlementSource, status: EntitlementStatus
    ) {
      self.entitlementId = entitlementId
      self.userId = userId
      self.key = key
      self.product = product
      self.startsAt = startsAt
      self.expiresAt = expiresAt
      self.source = source
      self.status = status
    }
  }

  package var rows: [Row] = []
  /// Where store keys are pooled.
  package let pool: TextPool
  /// Where product names are numbered.
  package let products: ProductNames

  /// An empty table with its own pools.
  package init() {
    pool = TextPool()
    products = ProductNames()
  }

  /// An empty table numbering keys and names in the given pools (a ledger builder's).
  init(pool: TextPool, products: ProductNames) {
    self.pool = pool
    self.products = products
  }

  /// A table of `entitlements`.
  package init(_ entitlements: [Entitlement]) {
    self.init()
    for e in entitlements { append(e) }
  }

  /// The number of rows.
  package var count: Int { rows.count }

  /// Adds one row.
  package mutating func append(_ e: Entitlement) {
    rows.append(
      Row(
        entitlementId: e.entitlementId, userId: e.userId,
        key: e.storeKey.map { PackedID.intern($0, in: pool) } ?? .absent, product: products.name(e.productId),
        startsAt: e.startsAt?.ms ?? PackedRecord.none, expiresAt: e.expiresAt?.ms ?? PackedRecord.none,
        source: e.source, status: e.status))
  }

  /// Makes room for about `n` rows (memory is only used as rows arrive).
  mutating func reserve(_ n: Int) { rows.reserveCapacity(n) }

  /// Row `i` as an ``Entitlement`` (the origin and `updatedAt` are not kept).
  package subscript(i: Int) -> Entitlement {
    let r = rows[i]
    return Entitlement(
      entitlementId: r.entitlementId, userId: r.userId, productId: products.names[Int(r.product)],
      source: r.source, storeKey: r.key.optionalString(pool: pool), status: r.status,
      startsAt: r.startsAt == PackedRecord.none ? nil : Instant(ms: r.startsAt),
      expiresAt: r.expiresAt == PackedRecord.none ? nil : Instant(ms: r.expiresAt),
      updatedAt: nil, origin: Origin(file: -1, line: 0))
  }

  /// The same rows numbered in `pool` and `products` (a copy unless they are already this table's).
  func sharing(pool: TextPool, products: ProductNames) -> PackedEntitlements {
    if self.pool === pool && self.products === products { return self }
    var copy = PackedEntitlements(pool: pool, products: products)
    copy.rows.reserveCapacity(rows.count)
    for i in rows.indices { copy.append(self[i]) }
    return copy
  }
}
