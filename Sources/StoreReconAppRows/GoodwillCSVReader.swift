package import StoreReconCore
package import StoreReconIO

/// Reads the goodwill contract from CSV: `grant_id, user_id, product_id, starts_at, ends_at, reason`.
///
/// Required: `grant_id`, `user_id`, `product_id`; a NULL `reason` reads as empty text.
package struct GoodwillCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  package static let columns = ["grant_id", "user_id", "product_id", "starts_at", "ends_at", "reason"]

  /// Creates the reader.
  package init() {}

  /// Reads one goodwill CSV file.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (GoodwillGrant) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: GoodwillCSVReader.columns, emit: emit, map: GoodwillCSVReader.row)
  }

  /// Reads goodwill rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (GoodwillGrant) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: GoodwillCSVReader.columns, emit: emit, map: GoodwillCSVReader.row)
  }

  /// One row's cells as `GoodwillGrant`, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> GoodwillGrant {
    GoodwillGrant(
      grantId: try cells.required(0), userId: try cells.required(1), productId: try cells.required(2),
      startsAt: try cells.timestamp(3), endsAt: try cells.timestamp(4), reason: cells.optional(5) ?? "",
      origin: origin)
  }
}
