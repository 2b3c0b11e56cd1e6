import Foundation
import Testing

@testable import StoreReconIO
@testable import StoreReconPostgres

/// The libpq wrapper against a live server: statements, parameters, errors with SQLSTATE, COPY both ways.
@Suite(.enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct PostgresConnectionTests {
  @Test func sessionIsUTCAndISO() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    let r = try db.execute(
      "SELECT current_setting('TimeZone'), current_setting('DateStyle'), '2026-11-29T10:00:00.5+02:00'::timestamptz::text"
    )
    #expect(r.value(0, 0) == "UTC")
    #expect(r.value(0, 1) == "ISO, YMD")
    #expect(r.value(0, 2) == "2026-11-29 08:00:00.5+00")
    #expect(db.serverVersion >= 120_000)
  }

  @Test func parametersAndNulls() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    let r = try db.execute("SELECT $1::text || '!', $2::bigint * 2, $3::text IS NULL", ["a'b", "21", nil])
    #expect(r.value(0, 0) == "a'b!")
    #expect(r.value(0, 1) == "42")
    #expect(r.value(0, 2) == "t")
    #expect(r.columnName(1) == "?column?")
  }

  @Test func serverErrorsCarrySQLStateAndMessage() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    do {
      try db.execute("SELECT * FROM no_such_table")
      Issue.record("expected an error")
    } catch {
      #expect(error.sqlState == "42P01")
      #expect(error.message.contains("no_such_table"))
      #expect(error.category == .query)
      #expect(!error.message.contains("\n"))
    }
    do {
      try db.execute("SELECT 1/0")
      Issue.record("expected an error")
    } catch {
      #expect(error.sqlState == "22012")
      #expect(error.category == .data)
    }
    // The connection is still usable after an error.
    #expect(try db.execute("SELECT 7").value(0, 0) == "7")
  }

  @Test func columnsOfAQueryWithoutRunningIt() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    #expect(try db.columns(of: "SELECT 1 AS a, 'x' AS b, now() AS c") == ["a", "b", "c"])
  }

  @Test func transactionRollsBackWhenTheBodyThrows() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    try db.execute("CREATE TEMP TABLE t (x int)")
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (1)")
        throw Boom()
      }
    }
    try db.transaction { try db.execute("INSERT INTO t VALUES (2)") }
    #expect(try db.execute("SELECT string_agg(x::text, ',') FROM t").value(0, 0) == "2")
  }

  @Test func copyInThenCopyOutRoundTrips() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    try db.execute("CREATE TEMP TABLE t (id text PRIMARY KEY, note text, at timestamptz)")
    let copy = try db.copyIn("COPY t (id, note, at) FROM STDIN WITH (FORMAT csv)")
    for i in 0..<50_000 {
      try copy.sendCSVRow(["k\(i)", i % 7 == 0 ? nil : "a, \"b\"\n\\.", "2026-11-29T10:00:00.123Z"])
    }
    #expect(try copy.finish() == 50_000)

    let source = try db.copyOut(
      "COPY (SELECT id, note, at FROM t ORDER BY id COLLATE \"C\") TO STDOUT WITH (FORMAT csv, HEADER true)",
      displayName: "t.sql")
    let csv = try CSVReader(
      lines: LineReader(source: source, displayName: "t.sql", chunkSize: 4096), displayName: "t.sql")
    #expect(csv.header == ["id", "note", "at"])
    var n = 0
    while let record = try csv.next() {
      n += 1
      if record.string(0) == "k14" {
        #expect(record.optionalString(1) == nil)
        #expect(record.string(2) == "2026-11-29 10:00:00.123+00")
      }
      if record.string(0) == "k1" { #expect(record.string(1) == "a, \"b\"\n\\.") }
    }
    #expect(n == 50_000)
    #expect(source.rows == 50_001)
    // The connection is ready for the next statement.
    #expect(try db.execute("SELECT count(*) FROM t").value(0, 0) == "50000")
  }

  @Test func copyOutFailureMidStreamKeepsTheSQLState() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    let source = try db.copyOut(
      "COPY (SELECT 10 / (5000 - g) FROM generate_series(1, 100000) g) TO STDOUT WITH (FORMAT csv)",
      displayName: "q.sql")
    let lines = LineReader(source: source, displayName: "q.sql", chunkSize: 256)
    #expect(throws: InputError.self) { while try lines.next() != nil {} }
    #expect(source.failure?.sqlState == "22012")
    #expect(try db.execute("SELECT 1").value(0, 0) == "1")
  }

  @Test func abandonedCopyOutLeavesTheConnectionUsable() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    do {
      let source = try db.copyOut(
        "COPY (SELECT g FROM generate_series(1, 2000000) g) TO STDOUT WITH (FORMAT csv)", displayName: "q.sql"
      )
      let lines = LineReader(source: source, displayName: "q.sql", chunkSize: 64)
      #expect(try lines.next() != nil)
    }
    #expect(try db.execute("SELECT 2").value(0, 0) == "2")
  }

  @Test func abortedCopyInStoresNothing() throws {
    let db = try PostgresConnection.connect(TestDatabase.url ?? "")
    try db.execute("CREATE TEMP TABLE t (x int)")
    let copy = try db.copyIn("COPY t FROM STDIN WITH (FORMAT csv)")
    try copy.sendCSVRow(["1"])
    copy.abort("test")
    #expect(try db.execute("SELECT count(*) FROM t").value(0, 0) == "0")
    let bad = try db.copyIn("COPY t FROM STDIN WITH (FORMAT csv)")
    try bad.sendCSVRow(["not a number"])
    do {
      try bad.finish()
      Issue.record("expected an error")
    } catch {
      #expect(error.sqlState == "22P02")
      #expect(error.message.contains("line 1"))
    }
  }
}
