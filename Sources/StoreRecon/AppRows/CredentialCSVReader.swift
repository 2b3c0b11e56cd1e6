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
      names: CredentialCSVReader.columns, emit: emit
    ) { (cells, origin) throws(RowRejection) -> Credential in
      Credential(
        store: try cells.choice(0, as: Store.self), storeKey: try cells.required(1),
        userId: try cells.required(2),
        linkedStoreKey: cells.optional(3), orderId: cells.optional(4), claimedAt: try cells.timestamp(5),
        origin: origin)
    }
  }

  /// Reads one credentials CSV file into `table` (packed, as the run keeps them).
  func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into table: inout CredentialTable
  ) throws(InputError) -> InputCounts {
    let pool = table.pool
    var rows: [CredentialTable.Row] = []
    swap(&rows, &table.rows)
    defer { swap(&rows, &table.rows) }
    return try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CredentialCSVReader.columns, emit: { rows.append($0) }
    ) { (cells, _) throws(RowRejection) -> CredentialTable.Row in
      let store = try cells.choice(0, as: Store.self)
      let key = PackedID.intern(try cells.requiredBytes(1), in: pool)
      let userId = String(decoding: try cells.requiredBytes(2), as: UTF8.self)
      let linked = cells.bytes(3)
      let order = cells.bytes(4)
      return CredentialTable.Row(
        userId: userId, key: key, linked: linked.isEmpty ? .absent : PackedID.intern(linked, in: pool),
        order: order.isEmpty ? .absent : PackedID.intern(order, in: pool),
        claimedAt: try cells.timestampMs(5), store: store)
    }
  }
}
