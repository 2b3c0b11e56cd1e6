package import StoreReconCore
package import StoreReconIO

/// Reads one store export format into normalised ``StoreTransaction`` values.
///
/// Every row read is either emitted or reported to the reject sink, so `read = accepted + rejected`.
/// A file that cannot be read at all (missing, broken container, missing header columns) throws.
package protocol StoreImporter {
  /// Reads one input file; calls `emit` for each accepted record; reports each rejected row to `rejects`.
  ///
  /// - Parameters:
  ///   - path: where to open the file.
  ///   - displayName: the path as the user wrote it, used in rejects and errors.
  ///   - fileIndex: the file's index in the run's inputs, kept in each record's ``Origin``.
  func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (StoreTransaction) -> Void
  ) throws(InputError) -> InputCounts
}
