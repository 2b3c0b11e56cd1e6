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
}
