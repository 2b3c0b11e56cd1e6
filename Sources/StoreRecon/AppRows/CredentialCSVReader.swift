/// Reads the credentials contract from CSV: `store, store_key, user_id, linked_store_key, order_id, claimed_at`.
///
/// Required: `store` (`app_store`, `play` or `stripe`), `store_key`, `user_id`.
public struct CredentialCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  public static let columns = ["store", "store_key", "user_id", "linked_store_key", "order_id", "claimed_at"]

  /// Creates the reader.
  public init() {}

  /// Reads one credentials CSV file.
  public func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Credential) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CredentialCSVReader.columns, emit: emit, map: CredentialCSVReader.row)
  }

  /// Reads credentials rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  public func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Credential) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CredentialCSVReader.columns, emit: emit, map: CredentialCSVReader.row)
  }

  /// One row's cells as `Credential`, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> Credential {
    Credential(
      store: try cells.choice(0, as: Store.self), storeKey: try cells.required(1),
      userId: try cells.required(2),
      linkedStoreKey: cells.optional(3), orderId: cells.optional(4), claimedAt: try cells.timestamp(5),
      origin: origin)
  }

  /// Reads one credentials CSV file into `table` (packed, as the run keeps them).
  func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into table: inout CredentialTable
  ) throws(InputError) -> InputCounts {
    let pool = table.pool
    var packed = CredentialTable(pool: pool)
    swap(&packed, &table)
    defer { swap(&packed, &table) }
    packed.reserve(AppRowCSV.estimatedRows(path))
    typealias Packed = (
      userId: String, key: PackedID, store: Store, claimedAt: Int64, linked: PackedID, order: PackedID
    )
    return try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CredentialCSVReader.columns,
      emit: { (r: Packed) in
        packed.append(
          userId: r.userId, key: r.key, store: r.store, claimedAt: r.claimedAt, linked: r.linked,
          order: r.order)
      }
    ) { (cells, _) throws(RowRejection) -> Packed in
      let store = try cells.choice(0, as: Store.self)
      let key = PackedID.intern(try cells.requiredBytes(1), in: pool)
      let userId = String(decoding: try cells.requiredBytes(2), as: UTF8.self)
      let linked = cells.bytes(3)
      let order = cells.bytes(4)
      return (
        userId, key, store, try cells.timestampMs(5),
        linked.isEmpty ? .absent : PackedID.intern(linked, in: pool),
        order.isEmpty ? .absent : PackedID.intern(order, in: pool)
      )
    }
  }
}
