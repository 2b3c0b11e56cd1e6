/// Reads the entitlements contract from CSV: `entitlement_id, user_id, product_id, source, store_key,
/// status, starts_at, expires_at, updated_at`.
///
/// Required: `entitlement_id`, `user_id`, `product_id`, `source` and `status` (each one of its enum
/// values); `expires_at` NULL means no end.
public struct EntitlementCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  public static let columns = [
    "entitlement_id", "user_id", "product_id", "source", "store_key", "status", "starts_at", "expires_at",
    "updated_at",
  ]

  /// Creates the reader.
  public init() {}

  /// Reads one entitlements CSV file.
  public func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Entitlement) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: EntitlementCSVReader.columns, emit: emit, map: EntitlementCSVReader.row)
  }

  /// Reads entitlements rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  public func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Entitlement) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: EntitlementCSVReader.columns, emit: emit, map: EntitlementCSVReader.row)
  }

  /// One row's cells as `Entitlement`, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> Entitlement {
    Entitlement(
      entitlementId: try cells.required(0), userId: try cells.required(1), productId: try cells.required(2),
      source: try cells.choice(3, as: EntitlementSource.self), storeKey: cells.optional(4),
      status: try cells.choice(5, as: EntitlementStatus.self), startsAt: try cells.timestamp(6),
      expiresAt: try cells.timestamp(7), updatedAt: try cells.timestamp(8), origin: origin)
  }

  /// Reads one entitlements CSV file into `table` (packed, as the run keeps them).
  func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into table: inout EntitlementTable
  ) throws(InputError) -> InputCounts {
    let pool = table.pool
    let products = table.products
    var rows: [EntitlementTable.Row] = []
    swap(&rows, &table.rows)
    defer { swap(&rows, &table.rows) }
    rows.reserveCapacity(rows.count + AppRowCSV.estimatedRows(path))
    return try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: EntitlementCSVReader.columns, emit: { rows.append($0) }
    ) { (cells, _) throws(RowRejection) -> EntitlementTable.Row in
      let entitlementId = String(decoding: try cells.requiredBytes(0), as: UTF8.self)
      let userId = String(decoding: try cells.requiredBytes(1), as: UTF8.self)
      let product = products.name(try cells.requiredBytes(2))
      let source = try cells.choice(3, as: EntitlementSource.self)
      let keyBytes = cells.bytes(4)
      let key = keyBytes.isEmpty ? PackedID.absent : PackedID.intern(keyBytes, in: pool)
      let status = try cells.choice(5, as: EntitlementStatus.self)
      let startsAt = try cells.timestampMs(6)
      let expiresAt = try cells.timestampMs(7)
      _ = try cells.timestampMs(8)  // updated_at: checked, not kept
      return EntitlementTable.Row(
        entitlementId: entitlementId, userId: userId, key: key, product: product, startsAt: startsAt,
        expiresAt: expiresAt, source: source, status: status)
    }
  }
}
