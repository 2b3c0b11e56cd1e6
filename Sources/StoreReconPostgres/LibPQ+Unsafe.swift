// Safety: each libpq handle has one owner that frees it exactly once (PQfinish, PQclear, PQfreemem,
// PQconninfoFree); C strings passed in live for the call (withCStrings) and every C string read is copied
// into a String before its result is cleared; result cells are read only inside the result's bounds and a
// COPY row is copied out before the next is received (preconditions, debug and release).

internal import CLibPQ

/// The fence around libpq: the only file of the adapter that holds libpq's handles, buffers and C
/// strings. Everything else calls these small safe APIs, which take and return Swift values.
enum LibPQ {
  /// The options libpq reads from a connection string (`PQconninfoParse`), in libpq's order, or the
  /// reason it cannot parse it (`nil` when libpq gives none).
  static func parseConnectionOptions(_ text: String) -> Swift.Result<[Option], ParseFailure> {
    var message: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(text, &message) else {
      let reason = message.map { String(cString: $0) }
      if let message { PQfreemem(message) }
      return .failure(ParseFailure(reason: reason))
    }
    defer { PQconninfoFree(options) }
    return .success(Option.list(options))
  }

  /// A connection string libpq cannot parse, with libpq's reason if it gave one.
  struct ParseFailure: Error {
    var reason: String?
  }

  /// One connection option: its keyword and its value (`nil` when unset).
  struct Option {
    var keyword: String
    var value: String?

    /// The options of a `PQconninfoOption` array, up to its terminating entry (the caller frees it).
    fileprivate static func list(_ options: UnsafeMutablePointer<PQconninfoOption>) -> [Option] {
      var list: [Option] = []
      var i = 0
      while let keyword = options[i].keyword {
        list.append(
          Option(keyword: String(cString: keyword), value: options[i].val.map { String(cString: $0) }))
        i += 1
      }
      return list
    }
  }

  /// The one owner of a `PGconn`: `PQfinish` runs exactly once, when the last reference goes. It also
  /// owns the row of a running `COPY … TO STDOUT` that has not been copied out yet (`PQfreemem` once).
  ///
  /// Not thread-safe, as the connection it serves.
  final class Connection {
    private let raw: OpaquePointer
    /// The COPY row received and not yet copied out in full, its length and the bytes already copied.
    private var copyRow: UnsafeMutablePointer<CChar>?
    private var copyRowLength = 0
    private var copyRowOffset = 0

    private init(owning raw: OpaquePointer) { self.raw = raw }

    deinit {
      if let copyRow { PQfreemem(copyRow) }
      PQfinish(raw)
    }

    /// Starts a non-blocking connect (`PQconnectStartParams` with `expand_dbname`); `nil` when libpq
    /// could not allocate a connection. `keywords` and `values` pair up.
    static func start(keywords: [String], values: [String]) -> Connection? {
      precondition(keywords.count == values.count, "LibPQ.Connection.start: one value per keyword")
      let started = withCStrings(keywords + [nil]) { k in
        withCStrings(values + [nil]) { v in PQconnectStartParams(k, v, 1) }
      }
      return started.map { Connection(owning: $0) }
    }

    // MARK: connecting and facts

    /// `PQstatus`.
    var status: ConnStatusType { PQstatus(raw) }

    /// One step of the non-blocking connect (`PQconnectPoll`).
    func poll() -> PostgresPollingStatusType { PQconnectPoll(raw) }

    /// The socket the connect waits on (`PQsocket`).
    var socket: Int32 { PQsocket(raw) }

    /// Sets how much detail error messages carry (`PQsetErrorVerbosity`).
    func setErrorVerbosity(_ verbosity: PGVerbosity) { _ = PQsetErrorVerbosity(raw, verbosity) }

    /// The connection's options as libpq uses them (`PQconninfo`); `nil` when libpq is out of memory.
    var options: [Option]? {
      guard let options = PQconninfo(raw) else { return nil }
      defer { PQconninfoFree(options) }
      return Option.list(options)
    }

    /// `PQhost`, `PQport`, `PQdb`, `PQuser`: `nil` where libpq has none.
    var host: String? { PQhost(raw).map { String(cString: $0) } }
    var port: String? { PQport(raw).map { String(cString: $0) } }
    var database: String? { PQdb(raw).map { String(cString: $0) } }
    var user: String? { PQuser(raw).map { String(cString: $0) } }

    /// The connection's current error message (`PQerrorMessage`).
    var errorMessage: String? { PQerrorMessage(raw).map { String(cString: $0) } }

    /// Whether the server asked for a password and none was given (`PQconnectionNeedsPassword`).
    var needsPassword: Bool { PQconnectionNeedsPassword(raw) != 0 }

    /// `PQserverVersion`.
    var serverVersion: Int { Int(PQserverVersion(raw)) }

    // MARK: statements

    /// `PQexec`: the result, or `nil` when libpq could not send the statement.
    func exec(_ sql: String) -> Result? { PQexec(raw, sql).map { Result(owning: $0) } }

    /// `PQexecParams` with text parameters (`nil` is NULL) and a text result.
    func exec(_ sql: String, parameters: [String?]) -> Result? {
      let started = withCStrings(parameters) { values in
        PQexecParams(raw, sql, Int32(values.count), nil, values, nil, nil, 0)
      }
      return started.map { Result(owning: $0) }
    }

    /// `PQprepare` of the unnamed statement, with no parameter types given.
    func prepareUnnamed(_ sql: String) -> Result? {
      PQprepare(raw, "", sql, 0, nil).map { Result(owning: $0) }
    }

    /// `PQdescribePrepared` of the unnamed statement.
    func describeUnnamed() -> Result? { PQdescribePrepared(raw, "").map { Result(owning: $0) } }

    /// The next result of the statement running (`PQgetResult`); `nil` once there is none.
    func nextResult() -> Result? { PQgetResult(raw).map { Result(owning: $0) } }

    /// Reads and frees every result still pending, readying the connection for its next statement.
    func discardResults() {
      while let result = PQgetResult(raw) { PQclear(result) }
    }

    /// Asks the server to cancel the running statement (`PQgetCancel`, `PQcancel`, `PQfreeCancel`).
    func cancel() {
      guard let cancel = PQgetCancel(raw) else { return }
      var message = [CChar](repeating: 0, count: 256)
      _ = PQcancel(cancel, &message, Int32(message.count))
      PQfreeCancel(cancel)
    }

    // MARK: COPY FROM STDIN

    /// Sends `bytes` as COPY data (`PQputCopyData`): 1 sent, 0 full (not in blocking mode), -1 failed.
    func putCopyData(_ bytes: [UInt8]) -> Int32 {
      bytes.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(raw, $0.baseAddress, Int32(bytes.count)) }
      }
    }

    /// Ends the COPY data (`PQputCopyEnd`), making the server fail the COPY with `failure` if one is given.
    func putCopyEnd(failure: String?) -> Int32 {
      if let failure { return PQputCopyEnd(raw, failure) }
      return PQputCopyEnd(raw, nil)
    }

    // MARK: COPY TO STDOUT

    /// Whether a received COPY row still has bytes to copy out.
    var hasCopyRow: Bool {
      @inline(__always) get { copyRow != nil }
    }

    /// Receives the next COPY row (`PQgetCopyData`, blocking) and returns libpq's answer: its length
    /// (> 0, the row is kept for ``copyRow(into:)``), -1 at the end of the COPY, -2 on failure. Only
    /// once the previous row is copied out in full.
    func receiveCopyRow() -> Int32 {
      precondition(copyRow == nil, "LibPQ.Connection: a COPY row is received after the last is copied out")
      var row: UnsafeMutablePointer<CChar>?
      let n = PQgetCopyData(raw, &row, 0)
      if n > 0, let row {
        copyRow = row
        copyRowLength = Int(n)
        copyRowOffset = 0
      } else if let row {
        PQfreemem(row)
      }
      return n
    }

    /// Copies what is left of the received COPY row into the start of `buffer`, as much as fits, and
    /// returns the bytes copied; frees the row once it is copied out in full.
    @inline(__always)
    func copyRow(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
      guard let row = copyRow, let base = buffer.baseAddress else { return 0 }
      let n = min(copyRowLength - copyRowOffset, buffer.count)
      UnsafeMutableRawPointer(base).copyMemory(from: row + copyRowOffset, byteCount: n)
      copyRowOffset += n
      if copyRowOffset == copyRowLength {
        PQfreemem(row)
        copyRow = nil
      }
      return n
    }

    /// Frees the received COPY row, if one is left.
    func discardCopyRow() {
      if let row = copyRow {
        PQfreemem(row)
        copyRow = nil
      }
    }

    /// Reads and frees COPY rows until libpq reports the end or a failure.
    func drainCopyRows() {
      precondition(copyRow == nil, "LibPQ.Connection: COPY rows are drained after the last is discarded")
      while true {
        var row: UnsafeMutablePointer<CChar>?
        let n = PQgetCopyData(raw, &row, 0)
        if let row { PQfreemem(row) }
        if n < 0 { break }
      }
    }
  }

  /// The one owner of a `PGresult`: `PQclear` runs exactly once, when the last reference goes. Values
  /// are read as text; row and column indices must be in range.
  final class Result {
    private let raw: OpaquePointer

    fileprivate init(owning raw: OpaquePointer) { self.raw = raw }

    deinit { PQclear(raw) }

    /// `PQresultStatus`.
    var status: ExecStatusType { PQresultStatus(raw) }

    /// libpq's name of the status (`PQresStatus`).
    var statusName: String? { PQresStatus(PQresultStatus(raw)).map { String(cString: $0) } }

    /// A field of the result's error (`PQresultErrorField`, a `PG_DIAG_*` code); `nil` when absent.
    func errorField(_ code: Int32) -> String? { PQresultErrorField(raw, code).map { String(cString: $0) } }

    /// The result's error message (`PQresultErrorMessage`).
    var errorMessage: String? { PQresultErrorMessage(raw).map { String(cString: $0) } }

    /// Rows returned (`PQntuples`).
    var rowCount: Int { Int(PQntuples(raw)) }

    /// Columns returned (`PQnfields`).
    var columnCount: Int { Int(PQnfields(raw)) }

    /// The name of column `index` (`PQfname`); `nil` out of range.
    func columnName(_ index: Int) -> String? { PQfname(raw, Int32(index)).map { String(cString: $0) } }

    /// Whether the cell is NULL (`PQgetisnull`).
    func isNull(_ row: Int, _ column: Int) -> Bool {
      precondition(contains(row, column), "LibPQ.Result: cell (\(row), \(column)) out of range")
      return PQgetisnull(raw, Int32(row), Int32(column)) != 0
    }

    /// The text of the cell (`PQgetvalue`); empty for NULL.
    func value(_ row: Int, _ column: Int) -> String? {
      precondition(contains(row, column), "LibPQ.Result: cell (\(row), \(column)) out of range")
      return PQgetvalue(raw, Int32(row), Int32(column)).map { String(cString: $0) }
    }

    /// The count of rows the command affected, as text (`PQcmdTuples`; empty when it reports none).
    var affectedRowsText: String? { PQcmdTuples(raw).map { String(cString: $0) } }

    private func contains(_ row: Int, _ column: Int) -> Bool {
      row >= 0 && row < rowCount && column >= 0 && column < columnCount
    }
  }
}

/// Calls `body` with C copies of `strings` (`nil` stays NULL), freed afterwards.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
  let copies: [UnsafeMutablePointer<CChar>?] = strings.map { string in
    string.map { text in
      let utf8 = Array(text.utf8CString)
      let copy = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
      copy.initialize(from: utf8, count: utf8.count)
      return copy
    }
  }
  defer { for copy in copies { copy?.deallocate() } }
  return body(copies.map { $0.map { UnsafePointer($0) } })
}
