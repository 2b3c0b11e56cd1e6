internal import CLibPQ
import StoreReconIO

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
  /// The connection the COPY runs on; its ``LibPQ/Connection`` holds the row being copied out.
  let connection: PostgresConnection
  /// Whether the COPY has ended (its last row received, failed, or cancelled).
  private(set) var finished = false

  init(connection: PostgresConnection, displayName: String) {
    self.connection = connection
    self.displayName = displayName
  }

  deinit { close() }

  /// Receives the next row into the connection's row buffer (``read(into:)`` copies it out), or ends
  /// the stream: with the COPY's final result after its last row, or with its failure.
  func receiveRow() throws(InputError) {
    let n = connection.handle.receiveCopyRow()
    if n > 0 && connection.handle.hasCopyRow {
      rows += 1
      bytes += Int64(n)
    } else if n == -1 {
      try end()
    } else {
      fail(connection.lastError())
      throw .unreadable(path: displayName, reason: failure?.description ?? "COPY failed")
    }
  }

  /// Collects the COPY's final result after its last row.
  private func end() throws(InputError) {
    finished = true
    connection.copyInProgress = false
    var error: PostgresError?
    while let result = connection.handle.nextResult() {
      if error == nil && result.status != PGRES_COMMAND_OK {
        error = connection.error(of: result)
      }
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
    connection.handle.discardResults()
  }

  /// Stops reading: cancels the query if rows are left and drains the connection for its next statement.
  package func close() {
    connection.handle.discardCopyRow()
    guard !finished else { return }
    connection.handle.cancel()
    connection.handle.drainCopyRows()
    finished = true
    connection.copyInProgress = false
    connection.handle.discardResults()
  }
}
