import Testing

@testable import StoreReconPostgres
@testable import StoreReconCLI
@testable import StoreReconRun

/// The wrapper's error mapping: SQLSTATE → category → exit code, one-line messages. No server needed.
struct PostgresErrorTests {
  @Test(arguments: [
    ("28P01", PostgresError.Category.permission, RunError.Code.noPermission),
    ("28000", .permission, .noPermission),
    ("42501", .permission, .noPermission),
    ("08006", .unavailable, .unavailable),
    ("57P03", .unavailable, .unavailable),
    ("53300", .unavailable, .unavailable),
    ("55P03", .lockTimeout, .unavailable),
    ("3D000", .unknownDatabase, .config),
    ("42P01", .query, .config),
    ("42703", .query, .config),
    ("22P02", .data, .dataError),
    ("23505", .data, .dataError),
    ("25P02", .other, .software),
    ("57014", .timeout, .unavailable),
    ("25006", .writeInReadOnly, .config),
  ])
  func sqlStateDecidesTheExitCode(state: String, category: PostgresError.Category, code: RunError.Code) {
    let error = PostgresError(sqlState: state, message: "m")
    #expect(error.category == category)
    #expect(RunError(error.databaseError("")).code == code)
  }

  @Test func noSQLStateOnALostConnectionIsUnavailable() {
    #expect(
      PostgresError(sqlState: nil, message: "server closed the connection", connectionLost: true).category
        == .unavailable)
    #expect(PostgresError(sqlState: nil, message: "odd").category == .other)
  }

  @Test func queryErrorsTakeTheExitCodeOfTheirContext() {
    let error = PostgresError(sqlState: "42601", message: "syntax error at or near \"FORM\"")
    #expect(error.kind(queryCode: .software) == .software)
    let run = RunError(error.databaseError("queries/entitlements.sql"))
    #expect(run.code == .config)
    #expect(run.message == "queries/entitlements.sql: syntax error at or near \"FORM\" (SQLSTATE 42601)")
  }

  @Test func messagesAreOneLine() {
    let error = PostgresError(
      sqlState: nil,
      message:
        "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running?\n"
    )
    #expect(
      error.message
        == "connection to server at \"127.0.0.1\", port 1 failed: Connection refused Is the server running?")
  }

  @Test func verboseConnectErrorsGiveTheirSQLState() {
    let text = """
      connection to server at "127.0.0.1", port 54329 failed: FATAL:  28P01: password authentication failed for user "x"
      LOCATION:  auth_failed, auth.c:326

      """
    let parsed = PostgresConnection.parseVerboseConnectError(text)
    #expect(parsed.sqlState == "28P01")
    #expect(
      parsed.message
        == "connection to server at \"127.0.0.1\", port 54329 failed: FATAL: password authentication failed for user \"x\""
    )
    let plain = PostgresConnection.parseVerboseConnectError(
      "could not translate host name \"nohost\" to address\n")
    #expect(plain.sqlState == nil)
  }

  @Test func copyLinesPointIntoTheFile() {
    let message =
      "duplicate key value violates unique constraint \"entitlements_pkey\" (COPY entitlements, line 3)"
    let mapped = DatabaseLoader.fileLines(
      message, table: "entitlements", path: "app/entitlements.csv", lines: [2, 5, 9])
    #expect(
      mapped
        == "duplicate key value violates unique constraint \"entitlements_pkey\" (app/entitlements.csv line 5)"
    )
  }
}
