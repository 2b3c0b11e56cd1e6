// Safety: the buffers handed out point into `record` and are valid only while it is (the body of the contract
// loop's `map`); callers copy what they keep. An index past the record's fields gives an empty buffer
// (CSVRecord.field checks it), never a read outside it.

import StoreReconIO

extension AppRowCSV.Cells {
  // The cells as the bytes the CSV record holds, for the readers' fast paths: the buffers point into
  // the record and are valid while it is (the body of the contract loop's `map`).

  /// The bytes of contract column `k` as written (empty: NULL).
  @inline(__always)
  func bytes(_ k: Int) -> UnsafeBufferPointer<UInt8> { record.field(columns[k]) }

  /// The bytes of contract column `k`, which must not be NULL.
  @inline(__always)
  func requiredBytes(_ k: Int) throws(RowRejection) -> UnsafeBufferPointer<UInt8> {
    let value = record.field(columns[k])
    guard !value.isEmpty else { throw RowRejection("missing \(names[k])") }
    return value
  }
}
