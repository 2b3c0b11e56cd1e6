internal import CLibPQ
package import StoreReconIO

/// The rows of a running `COPY … TO STDOUT` as a ``ByteSource``: each row as the server sends it,
/// read with `PQgetCopyData`, so memory stays flat whatever the size of the result.
///
/// A failure of the query or the connection while streaming throws ``InputError/unreadable(path:reason:)``
/// naming ``displayName``; ``failure`` keeps the ``PostgresError`` (SQLSTATE) for the exit code.
/// Closing early (or dropping the source) cancels the query and drains the connection.
package final class PostgresCopyOutSource: ByteSource {
  /// The name rejects and errors use (the query file's name).
  package let displayName: String
  /// Rows received so far.
  package private(set) var rows = 0
  /// Bytes received so far.
  package private(set) var bytes: Int64 = 0
  /// The error that ended the stream, if one did.
  package private(set) var failure: PostgresError?
  private let connection: PostgresConnection
  private var pending: UnsafeMutablePointer<CChar>?
  private var pendingLength = 0
  private var pendingOffset = 0
  private var finished = false

  init(connection: PostgresConnection, displayName: String) {
    self.connection = connection
    self.displayName = displayName
  }

  deinit { close() }

  /// Copies the next rows into `buffer`; `0` at the end of the result.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var written = 0
    while written < buffer.count {
      if let row = pending {
        let n = min(pendingLength - pendingOffset, buffer.count - written)
        UnsafeMutableRawPointer(base + written).copyMemory(from: row + pendingOffset, byteCount: n)
        written += n
        pendingOffset += n
        if pendingOffset == pendingLength {
          PQfreemem(row)
          pending = nil
        }
        continue
      }
      if finished { break }
      var row: UnsafeMutablePointer<CChar>?
      let n = PQgetCopyData(connection.handle, &row, 0)
      if n > 0, let row {
        pending = row
        pendingLength = Int(n)
        pendingOffset = 0
        rows += 1
        bytes += Int64(n)
      } else if n == -1 {
        try end()
      } else {
        if let row { PQfreemem(row) }
        fail(connection.lastError())
        throw .unreadable(path: displayName, reason: failure?.description ?? "COPY failed")
      }
    }
    return written
  }

  /// Collects the COPY's final result after its last row.
  private func end() throws(InputError) {
    finished = true
    connection.copyInProgress = false
    var error: PostgresError?
    while let result = PQgetResult(connection.handle) {
      let status = PQresultStatus(result)
      if error == nil && status != PGRES_COMMAND_OK {
        error = connection.error(of: result)
      }
      PQclear(result)
    }
    if let error {
      failure = error
      throw .unreadable(path: displayName, reason: error.description)
    }
  }

  private func fail(_ error: PostgresError) {
    failure = error
    finished = true
    connection.copyInProgress = false
    while let result = PQgetResult(connection.handle) { PQclear(result) }
  }

  /// Stops reading: cancels the query if rows are left and drains the connection for its next statement.
  package func close() {
    if let row = pending {
      PQfreemem(row)
      pending = nil
    }
    guard !finished else { return }
    if let cancel = PQgetCancel(connection.handle) {
      var message = [CChar](repeating: 0, count: 256)
      _ = PQcancel(cancel, &message, Int32(message.count))
      PQfreeCancel(cancel)
    }
    while true {
      var row: UnsafeMutablePointer<CChar>?
      let n = PQgetCopyData(connection.handle, &row, 0)
      if let row { PQfreemem(row) }
      if n < 0 { break }
    }
    finished = true
    connection.copyInProgress = false
    while let result = PQgetResult(connection.handle) { PQclear(result) }
  }
}
