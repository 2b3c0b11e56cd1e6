internal import CLibPQ
import StoreReconPlatform

/// One connection to PostgreSQL through libpq. It owns its `PGconn` and finishes it exactly once,
/// also when connecting fails.
///
/// The connection string is a URI (`postgresql://user@host:5432/db`) or a keyword string
/// (`host=… dbname=…`); libpq fills in what it leaves out from the `PG*` environment variables and
/// reads passwords from `PGPASSWORD` or `~/.pgpass` (`PGPASSFILE`). A connection string that carries
/// a password itself is refused. Every session runs with `TimeZone` UTC and `DateStyle` ISO so the
/// text of timestamps is stable, and with UTF-8 as the client encoding.
///
/// Not thread-safe: use a connection from one thread at a time.
package final class PostgresConnection {
  /// The seconds a connection attempt waits when the connection string sets no `connect_timeout`.
  package static let defaultConnectTimeout = 30

  /// The libpq connection; the one owner of its `PGconn`.
  let handle: LibPQ.Connection
  /// Set while a COPY streams on this connection; no other statement may run meanwhile.
  var copyInProgress = false
  /// Set while the read-only snapshot of the contract queries is open (``beginReadOnlySnapshot(_:)``).
  package internal(set) var inReadOnlySnapshot = false

  private init(owning handle: LibPQ.Connection) { self.handle = handle }

  // MARK: connecting

  /// Connects with `connectionString`, waiting at most its `connect_timeout` (else
  /// ``defaultConnectTimeout``) seconds.
  package static func connect(_ connectionString: String) throws(PostgresError) -> PostgresConnection {
    try ConnectionString.validate(connectionString)
    let keywords = ["dbname", "fallback_application_name", "client_encoding"]
    let values = [connectionString, "storerecon", "UTF8"]
    guard let started = LibPQ.Connection.start(keywords: keywords, values: values) else {
      throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection", category: .other)
    }
    let connection = PostgresConnection(owning: started)  // finishes the handle on every path from here
    try connection.completeConnect()
    try connection.configureSession()
    return connection
  }

  /// Drives the non-blocking connect to its end. Errors are verbose meanwhile so that a server's
  /// refusal carries its SQLSTATE (28P01 wrong password, 3D000 unknown database, …).
  private func completeConnect() throws(PostgresError) {
    handle.setErrorVerbosity(PQERRORS_VERBOSE)
    defer { handle.setErrorVerbosity(PQERRORS_DEFAULT) }
    guard handle.status != CONNECTION_BAD else { throw connectError() }
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(connectTimeout())
    var state = PGRES_POLLING_WRITING
    while true {
      switch state {
      case PGRES_POLLING_OK:
        return
      case PGRES_POLLING_FAILED:
        throw connectError()
      case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
        let remaining = deadline - clock.now
        let ms =
          remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        guard ms > 0 else { throw timeoutError() }
        let ready: Bool
        do {
          ready = try Syscall.waitFor(
            socket: handle.socket, readable: state == PGRES_POLLING_READING, timeoutMs: Int32(clamping: ms)
          )
        } catch {
          throw PostgresError(
            sqlState: nil, message: "waiting for the server: \(error.description)", connectionLost: true)
        }
        if !ready { throw timeoutError() }
      default:
        break
      }
      state = handle.poll()
    }
  }

  private func connectTimeout() -> Int {
    guard let options = handle.options else { return PostgresConnection.defaultConnectTimeout }
    for option in options {
      if option.keyword == "connect_timeout", let value = option.value, let seconds = Int(value), seconds > 0
      {
        return max(seconds, 2)
      }
    }
    return PostgresConnection.defaultConnectTimeout
  }

  private var target: String {
    let host = handle.host ?? ""
    let port = handle.port ?? ""
    let db = handle.database ?? ""
    let user = handle.user ?? ""
    return "\(user)@\(host):\(port)/\(db)"
  }

  private func timeoutError() -> PostgresError {
    PostgresError(
      sqlState: nil, message: "no answer from \(target) within \(connectTimeout()) s (connect_timeout)",
      connectionLost: true)
  }

  /// The failed connection's error, with the server's SQLSTATE where the server refused it.
  private func connectError() -> PostgresError {
    let text = handle.errorMessage ?? "connection failed"
    let parsed = PostgresConnection.parseVerboseConnectError(text)
    if parsed.sqlState == nil && handle.needsPassword {
      let passfile = handle.options?.first { $0.keyword == "passfile" }?.value
      return PostgresError(
        sqlState: nil,
        message: PostgresPasswordFile.ignored(passfile, target: target)
          ?? "\(target) asks for a password and none was given (set it in ~/.pgpass or PGPASSWORD)",
        category: .permission)
    }
    return PostgresError(
      sqlState: parsed.sqlState, message: parsed.message, connectionLost: parsed.sqlState == nil)
  }

  /// Splits a verbose libpq connection error (`…failed: FATAL:  28P01: password authentication
  /// failed…\nLOCATION: …`) into its SQLSTATE and a one-line message without the LOCATION lines.
  static func parseVerboseConnectError(_ text: String) -> (sqlState: String?, message: String) {
    var sqlState: String?
    var lines: [String] = []
    for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
      var line = String(raw)
      if line.hasPrefix("LOCATION:") { continue }
      // "SEVERITY:  XXXXX: message": take the SQLSTATE out of the text.
      if let range = line.range(of: ":  ") {
        let after = line[range.upperBound...]
        let code = after.prefix(5)
        if code.count == 5, code.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
          after.dropFirst(5).hasPrefix(": ")
        {
          sqlState = sqlState ?? String(code)
          line = String(line[..<range.upperBound]) + String(after.dropFirst(7))
        }
      }
      lines.append(line)
    }
    return (sqlState, PostgresError.oneLine(lines.joined(separator: "\n")).replacingDoubleSpaces())
  }

  private func configureSession() throws(PostgresError) {
    _ = try execute("SET TimeZone TO 'UTC'")
    _ = try execute("SET DateStyle TO 'ISO, YMD'")
  }

  // MARK: statements

  /// Runs one statement with text parameters `$1…$n` (`nil` is NULL) and returns its result.
  @discardableResult
  package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
    guard !copyInProgress else {
      throw PostgresError(
        sqlState: nil, message: "a COPY is still in progress on this connection", category: .other)
    }
    return try checked(
      handle.exec(sql, parameters: parameters), expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
  }

  /// Runs a script of several statements without parameters (`schema.sql`) in one round trip; the
  /// statements run in one transaction unless the script says otherwise.
  package func executeScript(_ sql: String) throws(PostgresError) {
    guard !copyInProgress else {
      throw PostgresError(
        sqlState: nil, message: "a COPY is still in progress on this connection", category: .other)
    }
    _ = try checked(handle.exec(sql), expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY])
  }

  /// The names of the columns `sql` returns, without running it (prepare + describe).
  package func columns(of sql: String) throws(PostgresError) -> [String] {
    _ = try checked(handle.prepareUnnamed(sql), expecting: [PGRES_COMMAND_OK])
    let described = try checked(handle.describeUnnamed(), expecting: [PGRES_COMMAND_OK])
    return (0..<described.columnCount).map { described.columnName($0) }
  }

  /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws (its error is rethrown).
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN")
    let value: T
    do {
      value = try body()
    } catch {
      if handle.status == CONNECTION_OK && !copyInProgress { _ = try? execute("ROLLBACK") }
      throw error
    }
    try execute("COMMIT")
    return value
  }

  /// Starts `COPY (query) TO STDOUT …` (or any `COPY … TO STDOUT`) and returns its rows as a byte stream.
  package func copyOut(_ copyStatement: String, displayName: String) throws(PostgresError)
    -> PostgresCopyOutSource
  {
    guard !copyInProgress else {
      throw PostgresError(
        sqlState: nil, message: "a COPY is still in progress on this connection", category: .other)
    }
    _ = try checked(handle.exec(copyStatement), expecting: [PGRES_COPY_OUT])
    copyInProgress = true
    return PostgresCopyOutSource(connection: self, displayName: displayName)
  }

  /// Starts `COPY … FROM STDIN`; send the data through the returned writer, then ``PostgresCopyIn/finish()``.
  package func copyIn(_ copyStatement: String) throws(PostgresError) -> PostgresCopyIn {
    guard !copyInProgress else {
      throw PostgresError(
        sqlState: nil, message: "a COPY is still in progress on this connection", category: .other)
    }
    _ = try checked(handle.exec(copyStatement), expecting: [PGRES_COPY_IN])
    copyInProgress = true
    return PostgresCopyIn(connection: self)
  }

  /// Wraps a result: throws its error unless its status is one of `expecting`.
  func checked(_ raw: LibPQ.Result?, expecting: [ExecStatusType]) throws(PostgresError) -> PostgresResult {
    guard let raw else { throw lastError() }
    let result = PostgresResult(owning: raw)
    let status = raw.status
    guard expecting.contains(status) else {
      if status == PGRES_FATAL_ERROR || status == PGRES_NONFATAL_ERROR { throw error(of: raw) }
      let name = raw.statusName ?? "\(status)"
      throw PostgresError(sqlState: nil, message: "unexpected result status \(name)", category: .other)
    }
    return result
  }

  /// The error a failed result carries: SQLSTATE, primary message, detail and first context line.
  func error(of result: LibPQ.Result) -> PostgresError {
    func field(_ code: Int32) -> String? {
      guard let s = result.errorField(code) else { return nil }
      return s.isEmpty ? nil : s
    }
    let state = field(storerecon_pg_diag_sqlstate())
    var message =
      field(storerecon_pg_diag_message_primary())
      ?? result.errorMessage ?? "unknown error"
    if let detail = field(storerecon_pg_diag_message_detail()) { message += " — " + detail }
    if let context = field(storerecon_pg_diag_context()), let first = context.split(separator: "\n").first {
      message += " (\(first))"
    }
    return PostgresError(
      sqlState: state, message: message, connectionLost: handle.status == CONNECTION_BAD)
  }

  /// The connection's current error message, for calls that returned no result.
  func lastError() -> PostgresError {
    let text = handle.errorMessage ?? ""
    return PostgresError(
      sqlState: nil, message: text.isEmpty ? "the server connection failed" : text,
      connectionLost: handle.status == CONNECTION_BAD)
  }

  // MARK: facts

  /// `user@host:port/db` (the host of a Unix socket is its folder), for messages; never a password.
  package var description: String { target }

  /// The server's version number (`150018` for 15.18).
  package var serverVersion: Int { handle.serverVersion }
}

extension String {
  /// libpq's messages put two spaces after a severity ("FATAL:  …"); one reads better on one line.
  fileprivate func replacingDoubleSpaces() -> String {
    var out = ""
    var lastSpace = false
    for c in self {
      if c == " " && lastSpace { continue }
      lastSpace = c == " "
      out.append(c)
    }
    return out
  }
}
