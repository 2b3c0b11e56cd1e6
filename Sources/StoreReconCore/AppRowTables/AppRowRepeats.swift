/// The app's rows with each id once: a `credit_id` or `entitlement_id` names one row, so a second row
/// with an id already read is a repeat (docs/contracts.md#one-row-per-id). A repeat with the same
/// content is a duplicate (counted once); one with other content is rejected, naming the row kept.
package enum AppRowRepeats {
  /// A row that repeats an id read before.
  package struct Repeat: Sendable, Equatable {
    /// The contract column holding the id (`credit_id`, `entitlement_id`).
    package var column: String
    /// The id.
    package var id: String
    /// The row taken out (the later one in input and line order).
    package var dropped: Origin
    /// The row kept (the first read).
    package var kept: Origin
    /// `nil` for the same row again (a duplicate); else which column differs (the row is rejected).
    package var conflict: String?

    /// Creates a repeat.
    package init(column: String, id: String, dropped: Origin, kept: Origin, conflict: String?) {
      self.column = column
      self.id = id
      self.dropped = dropped
      self.kept = kept
      self.conflict = conflict
    }
  }

  /// `rows` with each `credit_id` once, and the rows taken out: the first row (by input and line) is
  /// kept, a later one with the same content is a duplicate, a later one with other content a conflict.
  package static func credits(_ rows: [CreditRow]) -> (rows: [CreditRow], repeats: [Repeat]) {
    var first: [String: Int] = [:]
    first.reserveCapacity(rows.count)
    var repeated = false
    for (i, row) in rows.enumerated() where first.updateValue(i, forKey: row.creditId) != nil {
      repeated = true
    }
    // Without a repeat (the rule) the rows stay as they were given.
    guard repeated else { return (rows, []) }
    let order = rows.indices.sorted {
      (rows[$0].origin.file, rows[$0].origin.line) < (rows[$1].origin.file, rows[$1].origin.line)
    }
    var kept: [String: Int] = [:]
    var out: [CreditRow] = []
    var repeats: [Repeat] = []
    for i in order {
      let row = rows[i]
      guard let k = kept[row.creditId] else {
        kept[row.creditId] = out.count
        out.append(row)
        continue
      }
      repeats.append(
        Repeat(
          column: "credit_id", id: row.creditId, dropped: row.origin, kept: out[k].origin,
          conflict: difference(out[k], row)))
    }
    return (out, repeats)
  }

  /// The first column in which two credit rows differ, or `nil` where they are the same row.
  static func difference(_ a: CreditRow, _ b: CreditRow) -> String? {
    if a.userId != b.userId { return "user_id" }
    if a.store != b.store { return "store" }
    if a.transactionId != b.transactionId { return "transaction_id" }
    if a.productId != b.productId { return "product_id" }
    if a.quantity != b.quantity { return "quantity" }
    if a.creditedAt != b.creditedAt { return "credited_at" }
    if a.reversedAt != b.reversedAt { return "reversed_at" }
    return nil
  }
}

/// The `entitlement_id`s a run has read, across its files or queries, and the rows that repeated one
/// (``AppRowRepeats``): the readers ask it before adding a row to the packed table.
package final class EntitlementIds: @unchecked Sendable {
  /// The row (in the table) and origin of each id's first row.
  private var first: [String: (row: Int, origin: Origin)] = [:]
  /// The rows that repeated an id, in reading order.
  package private(set) var repeats: [AppRowRepeats.Repeat] = []

  /// No id read yet.
  package init() {}

  /// Appends `row`, read at `origin`, to `rows` (a table's) when it is the first with its id; else
  /// records the repeat and leaves the row out.
  package func append(_ row: PackedEntitlements.Row, origin: Origin, to rows: inout [PackedEntitlements.Row])
  {
    if let (k, kept) = first[row.entitlementId] {
      // A first row of another lineage (``recordDropped(id:origin:)``) has another user: rows of one
      // user are one lineage.
      repeats.append(
        AppRowRepeats.Repeat(
          column: "entitlement_id", id: row.entitlementId, dropped: origin, kept: kept,
          conflict: k < 0 ? "user_id" : Self.difference(rows[k], row)))
      return
    }
    first[row.entitlementId] = (rows.count, origin)
    rows.append(row)
  }

  /// Records the id of a row, read at `origin`, that a run in passes leaves out (another lineage's
  /// user), when it is the first with its id: a later row with that id is a repeat all the same. A
  /// repeat of a row already read is not recorded: neither row is this run's.
  package func recordDropped(id: String, origin: Origin) {
    if first[id] == nil { first[id] = (-1, origin) }
  }

  /// The first column in which two rows differ (keys and products numbered in one table's pools), or
  /// `nil` where they are the same row (`updated_at` is not kept, so not compared).
  static func difference(_ a: PackedEntitlements.Row, _ b: PackedEntitlements.Row) -> String? {
    if a.userId != b.userId { return "user_id" }
    if a.product != b.product { return "product_id" }
    if a.source != b.source { return "source" }
    if a.key != b.key { return "store_key" }
    if a.status != b.status { return "status" }
    if a.startsAt != b.startsAt { return "starts_at" }
    if a.expiresAt != b.expiresAt { return "expires_at" }
    return nil
  }
}

extension PackedEntitlements {
  /// Adds `e` unless its `entitlement_id` was read before (`ids` records the repeat).
  package mutating func append(_ e: Entitlement, ids: EntitlementIds) {
    var one = PackedEntitlements(pool: pool, products: products)
    one.append(e)
    for row in one.rows { ids.append(row, origin: e.origin, to: &rows) }
  }

  /// Records the id of `e`, an entitlement a run in passes leaves out (another lineage's user).
  package func recordDropped(_ e: Entitlement, ids: EntitlementIds) {
    ids.recordDropped(id: e.entitlementId, origin: e.origin)
  }
}
