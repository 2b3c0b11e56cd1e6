package import StoreReconCore
package import StoreReconIO

/// Reads one contract of the app's own rows (docs/contracts.md).
///
/// Same shape as ``StoreImporter``: every row is emitted or rejected (`read = accepted + rejected`);
/// a file that cannot be read, or whose header lacks a contract column, throws.
package protocol AppRowReader {
  /// The row type the contract holds.
  associatedtype Row

  /// Reads one input file; calls `emit` for each accepted row; reports each rejected row to `rejects`.
  func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Row) -> Void
  ) throws(InputError) -> InputCounts

  /// Reads the same contract from CSV bytes streamed from `source` — a header row, then rows, as
  /// PostgreSQL's `COPY (query) TO STDOUT WITH (FORMAT csv, HEADER true)` writes them — with the same
  /// rules and rejects as a file; a reject's line is the row's number in the result (1 = first row).
  func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Row) -> Void
  ) throws(InputError) -> InputCounts
}
