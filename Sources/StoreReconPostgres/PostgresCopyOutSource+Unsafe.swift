// Safety: writes only into the caller's `buffer`, through slices rebased at `written < buffer.count`;
// `copyRow(into:)` copies at most the slice's count and frees libpq's row once it is used up.

package import StoreReconIO

extension PostgresCopyOutSource {
  /// Copies the next rows into `buffer`; `0` at the end of the result. (``ByteSource`` hands over the
  /// caller's buffer; the rows come from ``LibPQ/Connection/copyRow(into:)``.)
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    guard buffer.baseAddress != nil else { return 0 }
    var written = 0
    while written < buffer.count {
      if connection.handle.hasCopyRow {
        written += connection.handle.copyRow(into: UnsafeMutableBufferPointer(rebasing: buffer[written...]))
        continue
      }
      if finished { break }
      try receiveRow()
    }
    return written
  }
}
