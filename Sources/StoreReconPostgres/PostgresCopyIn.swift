internal import CLibPQ

/// The data side of a running `COPY … FROM STDIN`: buffers what it is given and sends it with
/// `PQputCopyData` in blocks of ``blockSize`` bytes.
///
/// Call ``finish()`` to end the COPY and learn how many rows it stored; dropping the writer without
/// finishing (or calling ``abort(_:)``) makes the server discard the COPY.
package final class PostgresCopyIn {
  /// Bytes gathered before a block is sent.
  package static let blockSize = 1 << 18

  private let connection: PostgresConnection
  private var buffer: [UInt8] = []
  private var done = false

  init(connection: PostgresConnection) {
    self.connection = connection
    buffer.reserveCapacity(PostgresCopyIn.blockSize + 4096)
  }

  deinit { abort("the COPY was not finished") }

  /// Appends bytes of COPY data (whole rows or parts of them).
  package func send(_ bytes: some Sequence<UInt8>) throws(PostgresError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= PostgresCopyIn.blockSize { try flush() }
  }

  /// Appends one CSV row of `fields` (`nil` is NULL, written as an empty unquoted field).
  package func sendCSVRow(_ fields: [String?]) throws(PostgresError) {
    for (i, field) in fields.enumerated() {
      if i > 0 { buffer.append(0x2C) }
      guard let field else { continue }
      let utf8 = field.utf8
      if utf8.isEmpty
        || utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C })
      {
        buffer.append(0x22)
        for b in utf8 {
          if b == 0x22 { buffer.append(0x22) }
          buffer.append(b)
        }
        buffer.append(0x22)
      } else {
        buffer.append(contentsOf: utf8)
      }
    }
    buffer.append(0x0A)
    if buffer.count >= PostgresCopyIn.blockSize { try flush() }
  }

  private func flush() throws(PostgresError) {
    guard !buffer.isEmpty else { return }
    let status = connection.handle.putCopyData(buffer)
    buffer.removeAll(keepingCapacity: true)
    guard status == 1 else {
      let error = connection.lastError()
      abort("send failed")
      throw error
    }
  }

  /// Ends the COPY; returns the number of rows the server stored.
  @discardableResult
  package func finish() throws(PostgresError) -> Int {
    try flush()
    done = true
    connection.copyInProgress = false
    guard connection.handle.putCopyEnd(failure: nil) == 1 else {
      let error = connection.lastError()
      connection.handle.discardResults()
      throw error
    }
    var failure: PostgresError?
    var rows = 0
    while let result = connection.handle.nextResult() {
      if failure == nil {
        if result.status == PGRES_COMMAND_OK {
          rows = result.affectedRowsText.flatMap { Int($0) } ?? 0
        } else {
          failure = connection.error(of: result)
        }
      }
    }
    if let failure { throw failure }
    return rows
  }

  /// Makes the server discard the COPY (nothing of it is stored) and readies the connection.
  package func abort(_ reason: String) {
    guard !done else { return }
    done = true
    connection.copyInProgress = false
    buffer.removeAll()
    _ = connection.handle.putCopyEnd(failure: reason)
    connection.handle.discardResults()
  }
}
