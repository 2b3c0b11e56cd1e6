import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPostgres

/// Least privilege: every contract query runs in one read-only REPEATABLE READ transaction with a
/// statement timeout. A query that writes stops the run with one line and exit 78 and changes
/// nothing; a query past its statement timeout is the retryable exit 75.
@Suite(.serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct ReadOnlyQueryTests {
  typealias World = DatabaseRunTests.LoadedWorld

  /// A queries folder holding the built-in queries, with `goodwill.sql` replaced by `goodwill`.
  static func queries(goodwill: String) throws -> URL {
    let dir = try Binary.temporaryDirectory()
    for name in ["entitlements", "credentials", "assignments", "credits", "notifications"] {
      try Data((EmbeddedQueries.text(name) ?? "").utf8).write(to: dir.appendingPathComponent(name + ".sql"))
    }
    try Data(goodwill.utf8).write(to: dir.appendingPathComponent("goodwill.sql"))
    return dir
  }

  static func count(_ world: World, _ sql: String) throws -> String? {
    try world.connect().execute(sql).value(0, 0)
  }

  @Test func aQueryThatWritesIsExit78AndChangesNothing() throws {
    let world = try World()
    let goodwillRows = try Self.count(world, "SELECT count(*) FROM goodwill")
    #expect(goodwillRows != "0")
    try world.connect().executeScript(
      """
      CREATE TABLE touched (at timestamptz);
      CREATE FUNCTION touch() RETURNS text LANGUAGE sql AS $$ INSERT INTO touched VALUES (now()) RETURNING 'x' $$;
      """)
    let columns = "grant_id, user_id, product_id, starts_at, ends_at, reason"
    let writers = [
      "DELETE FROM goodwill RETURNING \(columns);\n",
      "WITH gone AS (DELETE FROM goodwill RETURNING *) SELECT \(columns) FROM gone ORDER BY grant_id\n",
      "SELECT grant_id, user_id, product_id, starts_at, ends_at, reason || touch() AS reason FROM goodwill\n",
    ]
    for (index, sql) in writers.enumerated() {
      let dir = try Self.queries(goodwill: sql)
      defer { try? FileManager.default.removeItem(at: dir) }
      let out = try world.run(["--queries", dir.path, "--quiet"], out: world.out("w\(index)"))
      #expect(out.status == 78, "\(sql): \(out.stderr)")
      let lines = out.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(out.stderr)")
      #expect(
        lines.first?.hasPrefix("storerecon: error: \(dir.path)/goodwill.sql: ") == true, "\(out.stderr)")
      #expect(
        out.stderr.contains("in a read-only transaction") && out.stderr.contains("(SQLSTATE 25006)")
          && out.stderr.contains("the contract queries run in a read-only transaction and may only read"),
        "\(out.stderr)")
      #expect(try Self.count(world, "SELECT count(*) FROM goodwill") == goodwillRows)
      #expect(try Self.count(world, "SELECT count(*) FROM touched") == "0")
      #expect(!FileManager.default.fileExists(atPath: world.out("w\(index)") + "/manifest.json"))
    }
  }

  @Test func theQueriesSeeOneReadOnlyRepeatableReadSnapshotWithATimeout() throws {
    let world = try World()
    let settings =
      "current_setting('transaction_read_only') || ' ' || current_setting('transaction_isolation') || ' '"
      + " || current_setting('statement_timeout') || ' ' || current_setting('idle_in_transaction_session_timeout')"
    let dir = try Self.queries(
      goodwill:
        "SELECT grant_id, user_id, product_id, starts_at, ends_at, \(settings) AS reason FROM goodwill ORDER BY grant_id\n"
    )
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = try world.run(["--queries", dir.path, "--quiet"], out: world.out("r"))
    #expect(out.status == 0, "\(out.stderr)")
    let grants = DatabaseRunTests.rows(try world.text(world.out("r"), "grants.csv"))
    let reasons = Set(grants.dropFirst().filter { $0.first == "goodwill_grant" }.map { $0.last ?? "" })
    #expect(reasons == ["on repeatable read 10min 5min"])
    // The history is still written, after the snapshot.
    #expect(try Self.count(world, "SELECT count(*) FROM storerecon_runs") == "1")
  }

  @Test func aQueryPastTheStatementTimeoutIsExit75() throws {
    let world = try World()
    // The session's own statement_timeout (here from the connection string) is kept.
    let url = world.url + (world.url.contains("?") ? "&" : "?") + "options=-c%20statement_timeout%3D300"
    let dir = try Self.queries(
      goodwill:
        "SELECT grant_id, user_id, product_id, starts_at, ends_at, reason FROM goodwill, pg_sleep(3) ORDER BY grant_id\n"
    )
    defer { try? FileManager.default.removeItem(at: dir) }
    let clock = ContinuousClock()
    let started = clock.now
    let out = try Binary.run(
      [
        "run", "--config", world.config, "--date", DatabaseRunTests.date, "--out", world.out("t"), "--quiet",
        "--queries", dir.path, "--database", url,
      ], in: Binary.packageRoot)
    #expect(clock.now - started < .seconds(60))
    #expect(out.status == 75, "\(out.stderr)")
    #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
    #expect(
      out.stderr.contains("canceling statement due to statement timeout (SQLSTATE 57014)"), "\(out.stderr)")
  }
}

extension ReadOnlyQueryTests {
  /// The role of docs/postgresql.md ("Least privilege"): SELECT on the contract tables, SELECT, INSERT
  /// and DELETE on the history tables, nothing else.
  @Test func aRoleWithTheDocumentedGrantsRunsAndKeepsHistory() throws {
    let world = try World()
    let role = "reader_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(10)
    let owner = try world.connect()
    try owner.executeScript(
      """
      CREATE ROLE \(role) LOGIN;
      GRANT CONNECT ON DATABASE \(world.database) TO \(role);
      GRANT USAGE ON SCHEMA public TO \(role);
      GRANT SELECT ON entitlements, credentials, assignments, goodwill, credits, notifications TO \(role);
      GRANT SELECT, INSERT, DELETE ON storerecon_runs, storerecon_findings TO \(role);
      """)
    defer {
      _ = try? owner.executeScript("DROP OWNED BY \(role); DROP ROLE \(role);")
    }
    var components = try #require(URLComponents(string: world.url))
    components.queryItems =
      (components.queryItems ?? []).filter { $0.name != "user" } + [
        URLQueryItem(name: "user", value: String(role))
      ]
    let url = try #require(components.string)
    let args = [
      "run", "--config", world.config, "--date", DatabaseRunTests.date, "--quiet", "--database", url,
    ]
    let first = try Binary.run(args + ["--out", world.out("a")], in: Binary.packageRoot)
    #expect(first.status == 0, "\(first.stderr)")
    // Re-running the date replaces its history (DELETE, then INSERT).
    let again = try Binary.run(args + ["--out", world.out("a")], in: Binary.packageRoot)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try Self.count(world, "SELECT count(*) FROM storerecon_runs") == "1")
    // Without the history grants, --no-history still runs; with history it is refused (77).
    try owner.execute("REVOKE ALL ON storerecon_runs, storerecon_findings FROM \(role)")
    let plain = try Binary.run(args + ["--out", world.out("b"), "--no-history"], in: Binary.packageRoot)
    #expect(plain.status == 0, "\(plain.stderr)")
    let refused = try Binary.run(args + ["--out", world.out("c")], in: Binary.packageRoot)
    #expect(refused.status == 77, "\(refused.stderr)")
  }
}
