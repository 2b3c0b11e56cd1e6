internal import CSQLite

/// The fence around libsqlite3: the only file of the adapter that holds SQLite's handles and C strings.
/// Everything else calls ``SQLite/Connection``'s small safe API, which takes and returns Swift values.
///
/// Safety: what makes the pointer code here safe:
/// - the `sqlite3*` is owned by exactly one ``SQLite/Connection`` (a final class, not copyable by value),
///   created only from a successful `sqlite3_open_v2` and closed once, in its `deinit`, with
///   `sqlite3_close_v2`; a failed open's handle is closed before `open` returns;
/// - a prepared statement lives only inside one call (`query`, `run`): prepared, bound, stepped to its
///   end and finalised there, also when a step fails, so no `sqlite3_stmt*` escapes;
/// - every text handed to SQLite is copied by it (`SQLITE_TRANSIENT`), and every text read from a
///   column is copied into a Swift `String` before the next step, so no C string outlives its statement;
/// - a connection is used from one thread at a time (the library is built thread-safe as well).
package enum SQLite {
  /// A value bound to a parameter or read from a column: SQLite's storage classes the history uses.
  package enum Value: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)

    /// The text, or the integer as text; `nil` for NULL.
    package var text: String? {
      switch self {
      case .null: return nil
      case .integer(let n): return String(n)
      case .text(let s): return s
      }
    }

    /// The integer, or text holding one; `nil` otherwise.
    package var integer: Int64? {
      switch self {
      case .null: return nil
      case .integer(let n): return n
      case .text(let s): return Int64(s)
      }
    }
  }

  /// What SQLite reported: its result code (primary and extended) and its message.
  package struct Failure: Error, Sendable {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …).
    package var code: Int32
    /// The extended result code.
    package var extendedCode: Int32
    /// `sqlite3_errmsg` (or `sqlite3_errstr` of the code when there is no connection).
    package var message: String
  }

  /// The result codes the adapter tells apart.
  package enum Code {
    package static let busy = SQLITE_BUSY
    package static let locked = SQLITE_LOCKED
    package static let notADatabase = SQLITE_NOTADB
    package static let corrupt = SQLITE_CORRUPT
    package static let cannotOpen = SQLITE_CANTOPEN
    package static let readOnly = SQLITE_READONLY
    package static let permission = SQLITE_PERM
    package static let ioError = SQLITE_IOERR
    package static let full = SQLITE_FULL
    package static let auth = SQLITE_AUTH
  }

  /// The version of the linked library (`sqlite3_libversion`).
  package static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  /// The one owner of a `sqlite3*`: `sqlite3_close_v2` runs exactly once, when the last reference goes.
  ///
  /// Not for use from two threads at once.
  package final class Connection {
    private let raw: OpaquePointer

    private init(owning raw: OpaquePointer) { self.raw = raw }

    deinit { sqlite3_close_v2(raw) }

    /// Opens (and, with `create`, creates) the database file at `path`, in read-write mode; extended
    /// result codes on.
    package static func open(path: String, create: Bool) throws(Failure) -> Connection {
      var handle: OpaquePointer?
      let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX
      let status = sqlite3_open_v2(path, &handle, flags, nil)
      guard status == SQLITE_OK, let handle else {
        let failure = Failure(
          code: status & 0xFF, extendedCode: status,
          message: handle.map { String(cString: sqlite3_errmsg($0)) }
            ?? String(cString: sqlite3_errstr(status)))
        if let handle { sqlite3_close_v2(handle) }
        throw failure
      }
      sqlite3_extended_result_codes(handle, 1)
      return Connection(owning: handle)
    }

    /// How long a statement waits for another connection's lock before it fails with `SQLITE_BUSY`.
    package func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(raw, milliseconds) }

    /// Runs `sql`, one or more statements without parameters or results (`sqlite3_exec`).
    package func execute(_ sql: String) throws(Failure) {
      let status = sqlite3_exec(raw, sql, nil, nil, nil)
      guard status == SQLITE_OK else { throw failure(status) }
    }

    /// Runs one statement with `parameters` bound to `?1…`; returns every row it gives.
    @discardableResult
    package func query(_ sql: String, _ parameters: [Value] = []) throws(Failure) -> [[Value]] {
      var rows: [[Value]] = []
      try withStatement(sql, parameters) { (statement) throws(Failure) in
        let columns = sqlite3_column_count(statement)
        while true {
          let status = sqlite3_step(statement)
          if status == SQLITE_DONE { return }
          guard status == SQLITE_ROW else { throw failure(status) }
          var row: [Value] = []
          row.reserveCapacity(Int(columns))
          for c in 0..<columns { row.append(Self.column(statement, c)) }
          rows.append(row)
        }
      }
      return rows
    }

    /// Runs one statement once for each parameter list (an insert of many rows), preparing it once.
    package func runEach(_ sql: String, _ parameterLists: [[Value]]) throws(Failure) {
      guard let first = parameterLists.first else { return }
      try withStatement(sql, first) { (statement) throws(Failure) in
        for (i, parameters) in parameterLists.enumerated() {
          if i > 0 {
            sqlite3_reset(statement)
            try bind(parameters, to: statement)
          }
          let status = sqlite3_step(statement)
          guard status == SQLITE_DONE || status == SQLITE_ROW else { throw failure(status) }
        }
      }
    }

    /// The row id of the last insert on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(raw) }

    /// Prepares `sql`, binds `parameters`, hands the statement to `body` and finalises it, also when
    /// `body` throws: the statement never leaves this call.
    private func withStatement(
      _ sql: String, _ parameters: [Value], _ body: (OpaquePointer) throws(Failure) -> Void
    ) throws(Failure) {
      var statement: OpaquePointer?
      let prepared = sqlite3_prepare_v2(raw, sql, -1, &statement, nil)
      guard prepared == SQLITE_OK, let statement else {
        if let statement { sqlite3_finalize(statement) }
        throw failure(prepared)
      }
      defer { sqlite3_finalize(statement) }
      try bind(parameters, to: statement)
      try body(statement)
    }

    private func bind(_ parameters: [Value], to statement: OpaquePointer) throws(Failure) {
      for (i, value) in parameters.enumerated() {
        let index = Int32(i + 1)
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(statement, index)
        case .integer(let n): status = sqlite3_bind_int64(statement, index, n)
        case .text(let s): status = sqlite3_bind_text(statement, index, s, -1, storerecon_sqlite_transient())
        }
        guard status == SQLITE_OK else { throw failure(status) }
      }
    }

    /// Column `c` of the statement's current row, copied out.
    private static func column(_ statement: OpaquePointer, _ c: Int32) -> Value {
      switch sqlite3_column_type(statement, c) {
      case SQLITE_NULL: return .null
      case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, c))
      default:
        guard let text = sqlite3_column_text(statement, c) else { return .null }
        return .text(String(cString: text))
      }
    }

    /// The failure of `status`, with the connection's message.
    private func failure(_ status: Int32) -> Failure {
      let extended = sqlite3_extended_errcode(raw)
      return Failure(
        code: status & 0xFF, extendedCode: extended, message: String(cString: sqlite3_errmsg(raw)))
    }
  }
}
