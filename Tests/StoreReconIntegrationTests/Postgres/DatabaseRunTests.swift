import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconPostgres
@testable import StoreReconDemo

/// The binary against a live PostgreSQL: the demo world loaded with `db load` gives the CSV run's
/// reports byte for byte; run history across dates; the date lock; each failure one line and its code.
@Suite(.serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct DatabaseRunTests {
  static let date = "2026-11-29"
  static let nextDate = "2026-11-30"

  /// A demo world of ~1000 users and a fresh database holding its app rows (`db init` + `db load`).
  final class LoadedWorld {
    let dir: URL
    let database: String
    let url: String
    let loadOutput: Binary.Output
    /// Data rows in the world's entitlements.csv, and how many of them the contract accepts.
    let entitlementsRead: Int
    let entitlementsAccepted: Int
    /// The line of the planted entitlement whose timestamp has no offset.
    let noOffsetLine: Int

    init() throws {
      dir = try Binary.temporaryDirectory()
      var options = DemoOptions()
      options.users = 1000
      let truth = try DemoWorld.generate(options, into: dir.path)
      let lines = try String(contentsOf: dir.appendingPathComponent("app/entitlements.csv"), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: true)
      entitlementsRead = lines.count - 1
      entitlementsAccepted = entitlementsRead - (truth.rejectsPerFile["app/entitlements.csv"] ?? 0)
      noOffsetLine = (lines.firstIndex { $0.contains("2026-06-01T10:00:00,") } ?? -2) + 1
      database = try TestDatabase.create()
      url = TestDatabase.url(database: database)
      let initOutput = try Binary.run(["db", "init", "--database", url])
      #expect(initOutput.status == 0, "\(initOutput.stderr)")
      loadOutput = try Binary.run(["db", "load", "--database", url, dir.appendingPathComponent("app").path])
      #expect(loadOutput.status == 0, "\(loadOutput.stderr)")
    }

    deinit {
      TestDatabase.drop(database)
      try? FileManager.default.removeItem(at: dir)
    }

    var config: String { dir.appendingPathComponent("storerecon.json").path }

    func out(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func file(_ out: String, _ name: String) throws -> Data {
      try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
    }

    func text(_ out: String, _ name: String) throws -> String {
      String(decoding: try file(out, name), as: UTF8.self)
    }

    /// `storerecon run` on this world's config against its database.
    func run(_ extra: [String], date: String = DatabaseRunTests.date, out: String) throws -> Binary.Output {
      try Binary.run(
        ["run", "--config", config, "--date", date, "--out", out, "--database", url] + extra,
        in: Binary.packageRoot)
    }

    func connect() throws -> PostgresConnection { try PostgresConnection.connect(url) }
  }

  /// CSV rows as arrays of fields (the reports' fields hold no line breaks except quoted details).
  static func rows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var field = ""
    var row: [String] = []
    var quoted = false
    var previous: Character = " "
    for c in text {
      if quoted {
        if c == "\"" { quoted = false } else { field.append(c) }
      } else if c == "\"" {
        if previous == "\"" { field.append("\"") }
        quoted = true
      } else if c == "," {
        row.append(field)
        field = ""
      } else if c == "\n" {
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      } else {
        field.append(c)
      }
      previous = c
    }
    return rows
  }

  @Test func databaseRunGivesTheCSVRunsReportsByteForByte() throws {
    let world = try LoadedWorld()
    // db load drops exactly the rows the contract rejects, and says which.
    #expect(world.loadOutput.stdout.contains("entitlements: \(world.entitlementsAccepted) rows loaded"))
    #expect(
      world.loadOutput.stdout.contains(
        "(\(world.entitlementsRead) read, \(world.entitlementsRead - world.entitlementsAccepted) rejected)"))
    #expect(
      world.loadOutput.stderr.contains(
        "line \(world.noOffsetLine): starts_at '2026-06-01T10:00:00' is not an ISO 8601 timestamp"))

    let csvOut = world.out("out-csv")
    let csv = try Binary.run([
      "run", "--config", world.config, "--date", Self.date, "--out", csvOut, "--quiet", "--no-history",
    ])
    #expect(csv.status == 0, "\(csv.stderr)")
    let dbOut = world.out("out-db")
    let db = try world.run(["--no-history"], out: dbOut)
    #expect(db.status == 0, "\(db.stderr)")
    for name in ["findings.csv", "revenue.csv", "counts.csv", "grants.csv"] {
      #expect(try world.file(csvOut, name) == world.file(dbOut, name), "\(name) differs")
    }
    #expect(try world.text(dbOut, "findings.csv").split(separator: "\n").count > 40)
    #expect(!FileManager.default.fileExists(atPath: dbOut + "/changes.csv"))
    #expect(
      db.stdout.contains(
        "app.entitlements queries/entitlements.sql (PostgreSQL): read \(world.entitlementsAccepted) = accepted \(world.entitlementsAccepted) + rejected 0"
      ))
    #expect(
      db.stderr.contains(
        "read app.entitlements queries/entitlements.sql from PostgreSQL: \(world.entitlementsAccepted) rows"))
    #expect(db.stderr.contains("rows/s)"))

    // The manifest names the query and its checksum instead of a file's.
    let manifest =
      try JSONSerialization.jsonObject(with: world.file(dbOut, "manifest.json")) as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    let entitlements = inputs.first { $0["role"] as? String == "app.entitlements" }
    #expect(entitlements?["path"] as? String == "queries/entitlements.sql")
    #expect(entitlements?["source"] as? String == "postgresql")
    #expect(
      entitlements?["sha256"] as? String == SHA256Digest.hex(of: Array(EmbeddedQueries.entitlements.utf8)))
    #expect(entitlements?["read"] as? Int == world.entitlementsAccepted)

    // With history: the same findings, `since` = the run's date on a first run.
    let historyOut = world.out("out-history")
    let withHistory = try world.run(["--quiet"], out: historyOut)
    #expect(withHistory.status == 0, "\(withHistory.stderr)")
    let plain = Self.rows(try world.text(csvOut, "findings.csv"))
    let dated = Self.rows(try world.text(historyOut, "findings.csv"))
    #expect(plain.count == dated.count)
    for (a, b) in zip(plain.dropFirst(), dated.dropFirst()) {
      #expect(b[9] == Self.date)
      var a2 = a
      a2[9] = Self.date
      #expect(a2 == b)
    }
    #expect(try world.file(csvOut, "revenue.csv") == world.file(historyOut, "revenue.csv"))
  }

  @Test func configDatabaseAndBuiltInQueriesWorkAnywhere() throws {
    let world = try LoadedWorld()
    let elsewhere = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    // The config names the database (and no app CSV files); no queries/ folder where the binary runs.
    var config = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: world.config)))
        as? [String: Any])
    // `app.credits: true` asks for the (optional) credits query, `app.notifications: true` for the
    // notification log's: here their built-in copies.
    config["app"] = ["database": world.url, "credits": true, "notifications": true] as [String: Any]
    let configPath = world.dir.appendingPathComponent("db.json").path
    try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
    let out = world.out("out-builtin")
    let run = try Binary.run(
      ["run", "--config", configPath, "--date", Self.date, "--out", out, "--no-history"], in: elsewhere)
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try JSONSerialization.jsonObject(with: world.file(out, "manifest.json")) as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    #expect(inputs.filter { $0["builtInQuery"] as? Bool == true }.count == 6)
    #expect(!run.stderr.contains("CSV files are not read"))
    let csvOut = world.out("out-csv")
    let csv = try Binary.run([
      "run", "--config", world.config, "--date", Self.date, "--out", csvOut, "--quiet", "--no-history",
    ])
    #expect(csv.status == 0)
    #expect(try world.file(csvOut, "findings.csv") == world.file(out, "findings.csv"))
  }

  @Test func loadingADuplicateKeyNamesTheFileLineAndLoadsNothing() throws {
    let world = try LoadedWorld()
    let dir = try TempDir()
    try dir.write(
      "entitlements.csv",
      """
      entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at
      e1,u1,pro:monthly,play,GPA.1,active,2026-11-01T00:00:00Z,,
      e2,u2,pro:monthly,play,GPA.2,bogus,2026-11-01T00:00:00Z,,
      e1,u3,pro:monthly,play,GPA.3,active,2026-11-01T00:00:00Z,,

      """)
    let out = try Binary.run(["db", "load", "--database", world.url, dir.url.path])
    #expect(out.status == 65, "\(out.stderr)")
    let lines = out.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(out.stderr)")
    #expect(lines.last?.hasPrefix("storerecon: error: loading ") == true)
    #expect(lines.last?.contains("entitlements.csv line 4") == true)
    #expect(lines.last?.contains("already exists") == true)
    #expect(lines.last?.hasSuffix("nothing was loaded") == true)
    let count = try world.connect().execute("SELECT count(*) FROM entitlements")
    #expect(count.value(0, 0) == "\(world.entitlementsAccepted)")
  }

  /// The history's finding rows of a date (the other cases' rows left out: docs/history.md).
  static let findingRows =
    "SELECT count(*) FROM storerecon_findings WHERE report_date = $1::date AND kind NOT IN "
    + "('tieout_cell', 'tieout_order', 'rejected_rows')"

  @Test func historyShowsNewOpenAndResolvedAcrossTwoDates() throws {
    let world = try LoadedWorld()
    let first = try world.run(["--quiet"], out: world.out("d1"))
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("(first recorded run)"))
    let firstFindings = Self.rows(try world.text(world.out("d1"), "findings.csv")).dropFirst()

    // Between the runs: one entitlement with no store purchase appears, one with none disappears.
    let gone = try #require(firstFindings.first { $0[2] == "no_store_record" })
    let db = try world.connect()
    try db.execute("DELETE FROM entitlements WHERE user_id = $1 AND store_key = $2", [gone[5], gone[4]])
    try db.execute(
      """
      INSERT INTO entitlements VALUES ('ent_new', 'u_new', 'com.acme.pro.monthly', 'app_store', '1999999999999999',
        'active', '2026-11-01T00:00:00Z', '2027-11-01T00:00:00Z', NULL)
      """)
    let newKey = Finding.key(
      kind: .freeEntitlement, store: .appStore, chainKey: "1999999999999999", userId: "u_new")

    let second = try world.run(["--quiet"], date: Self.nextDate, out: world.out("d2"))
    #expect(second.status == 0, "\(second.stderr)")
    let changes = Self.rows(try world.text(world.out("d2"), "changes.csv"))
    #expect(
      changes.first == [
        "state", "finding_key", "kind", "reason", "store", "chain_key", "user_id", "product_id", "currency",
        "amount_minor", "since",
      ])
    let byKey = Dictionary(changes.dropFirst().map { ($0[1], $0) }, uniquingKeysWith: { a, _ in a })
    #expect(byKey[newKey]?[0] == "new")
    #expect(byKey[newKey]?[10] == Self.nextDate)
    #expect(byKey[gone[0]]?[0] == "resolved")
    #expect(byKey[gone[0]]?[10] == Self.date)
    let states = changes.dropFirst().map { $0[0] }
    let open = states.filter { $0 == "open" }.count
    let new = states.filter { $0 == "new" }.count
    let resolved = states.filter { $0 == "resolved" }.count
    #expect(open > 20)
    #expect(
      states
        == states.sorted {
          ["new": 0, "open": 1, "resolved": 2][$0, default: 3]
            < ["new": 0, "open": 1, "resolved": 2][$1, default: 3]
        })
    #expect(
      second.stdout.contains(
        "history since the previous run (\(Self.date)): \(new) new, \(open) still open, \(resolved) resolved")
    )
    // Every open finding was first seen on the first date; findings.csv says so in `since`.
    for row in changes.dropFirst() where row[0] == "open" { #expect(row[10] == Self.date) }
    let secondFindings = Self.rows(try world.text(world.out("d2"), "findings.csv")).dropFirst()
    for f in secondFindings {
      #expect(f[9] == (byKey[f[0]]?[0] == "open" ? Self.date : Self.nextDate), "\(f[0])")
    }

    // The history tables: one run per date, the second pointing at the first.
    let runs = try db.execute(
      "SELECT report_date::text, previous_date::text, new_findings, open_findings, resolved_findings, status FROM storerecon_runs ORDER BY report_date"
    )
    #expect(runs.rowCount == 2)
    #expect(runs.value(1, 1) == Self.date)
    #expect(runs.value(1, 2) == String(new))
    #expect(runs.value(1, 3) == String(open))
    #expect(runs.value(1, 4) == String(resolved))
    #expect(runs.value(1, 5) == "complete")
    let stored = try db.execute(Self.findingRows, [Self.nextDate])
    #expect(stored.value(0, 0) == String(new + open))

    // Re-running a date replaces its history: same reports, still one run for that date.
    let again = try world.run(["--quiet"], date: Self.nextDate, out: world.out("d2-again"))
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      try world.file(world.out("d2"), "changes.csv") == world.file(world.out("d2-again"), "changes.csv"))
    #expect(
      try world.file(world.out("d2"), "findings.csv") == world.file(world.out("d2-again"), "findings.csv"))
    let counted = try db.execute("SELECT count(*), count(DISTINCT run_id) FROM storerecon_runs")
    #expect(counted.value(0, 0) == "2")
    let afterRerun = try db.execute(Self.findingRows, [Self.nextDate])
    #expect(afterRerun.value(0, 0) == String(new + open))
  }

  @Test func aSecondRunForOneDateWaitsForTheLockOrRefuses() throws {
    let world = try LoadedWorld()
    let days = try #require(CivilDate.parse(Self.date)).daysSinceEpoch
    let holder = try world.connect()
    try holder.execute(
      "SELECT pg_advisory_lock($1::int, $2::int)", [String(RunHistoryStore.lockNamespace), String(days)])

    // Held past the timeout: refused, one line, 75.
    let refused = try world.run(["--lock-timeout", "1", "--quiet"], out: world.out("refused"))
    #expect(refused.status == 75)
    let lines = refused.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(refused.stderr)")
    #expect(
      lines.first?.hasPrefix("storerecon: error: another storerecon run for \(Self.date) holds its lock")
        == true)
    #expect(!FileManager.default.fileExists(atPath: world.out("refused") + "/findings.csv"))

    // Another date is not blocked.
    let other = try world.run(
      ["--lock-timeout", "0", "--quiet"], date: Self.nextDate, out: world.out("other"))
    #expect(other.status == 0, "\(other.stderr)")

    // Released while waiting: the run goes on.
    let waiting = try Binary.start(
      [
        "run", "--config", world.config, "--date", Self.date, "--out", world.out("waited"), "--database",
        world.url,
        "--lock-timeout", "120",
      ], in: Binary.packageRoot)
    let stderrPath = waiting.directory.appendingPathComponent("stderr").path
    var sawWaiting = false
    for _ in 0..<200 {
      if let text = try? String(contentsOfFile: stderrPath, encoding: .utf8),
        text.contains("waiting up to 120 s")
      {
        sawWaiting = true
        break
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(sawWaiting)
    #expect(waiting.process.isRunning)
    try holder.execute(
      "SELECT pg_advisory_unlock($1::int, $2::int)", [String(RunHistoryStore.lockNamespace), String(days)])
    let done = try Binary.finish(waiting)
    #expect(done.status == 0, "\(done.stderr)")

    // Two runs started together for one date: both finish, one after the other; one run recorded.
    let a = try Binary.start(
      [
        "run", "--config", world.config, "--date", Self.date, "--out", world.out("a"), "--database",
        world.url, "--quiet",
      ],
      in: Binary.packageRoot)
    let b = try Binary.start(
      [
        "run", "--config", world.config, "--date", Self.date, "--out", world.out("b"), "--database",
        world.url, "--quiet",
      ],
      in: Binary.packageRoot)
    let ra = try Binary.finish(a)
    let rb = try Binary.finish(b)
    #expect(ra.status == 0, "\(ra.stderr)")
    #expect(rb.status == 0, "\(rb.stderr)")
    #expect(try world.file(world.out("a"), "findings.csv") == world.file(world.out("b"), "findings.csv"))
    let runs = try holder.execute(
      "SELECT count(*) FROM storerecon_runs WHERE report_date = $1::date", [Self.date])
    #expect(runs.value(0, 0) == "1")
  }

  @Test func rejectsFromTheDatabaseNameTheQueryFileAndRow() throws {
    let world = try LoadedWorld()
    let db = try world.connect()
    try db.execute(
      "INSERT INTO entitlements VALUES ('zzz_bad', 'u_bad', 'pro:monthly', 'play', NULL, 'suspended', NULL, NULL, NULL)"
    )
    let out = world.out("rejects")
    let run = try world.run(["--no-history", "--quiet"], out: out)
    #expect(run.status == 0, "\(run.stderr)")
    let rejects = Self.rows(try world.text(out, "rejects/queries_entitlements.sql.csv"))
    #expect(rejects.count == 2)
    #expect(rejects[1][0] == "queries/entitlements.sql")
    #expect(rejects[1][1] == "\(world.entitlementsAccepted + 1)")  // the last row in entitlement_id order
    #expect(rejects[1][2].hasPrefix("unknown status 'suspended'"))
    #expect(
      run.stdout.contains(
        "read \(world.entitlementsAccepted + 1) = accepted \(world.entitlementsAccepted) + rejected 1"))
  }

  /// A query that returns an id twice (a join, a union): the same row again counts once, other content
  /// under the id is rejected naming the first row, as from a CSV file (docs/contracts.md#one-row-per-id).
  @Test func repeatedIdsFromQueriesCountOnceOrAreRejected() throws {
    let world = try LoadedWorld()
    let before = try world.run(["--no-history", "--quiet"], out: world.out("before"))
    #expect(before.status == 0, "\(before.stderr)")
    let queries = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: queries) }
    for name in ["credentials", "assignments", "goodwill", "notifications"] {
      try Data((EmbeddedQueries.text(name) ?? "").utf8).write(
        to: queries.appendingPathComponent(name + ".sql"))
    }
    // Every credit, then the first credit again as it is; every entitlement, then the first with another
    // status (the union's rows come last).
    try Data(
      """
      (SELECT credit_id, user_id, store, transaction_id, product_id, quantity, credited_at, reversed_at
       FROM credits ORDER BY credit_id COLLATE "C")
      UNION ALL
      (SELECT credit_id, user_id, store, transaction_id, product_id, quantity, credited_at, reversed_at
       FROM credits ORDER BY credit_id COLLATE "C" LIMIT 1)
      """.utf8
    ).write(to: queries.appendingPathComponent("credits.sql"))
    try Data(
      """
      (SELECT entitlement_id, user_id, product_id, source, store_key, status, starts_at, expires_at, updated_at
       FROM entitlements ORDER BY entitlement_id COLLATE "C")
      UNION ALL
      (SELECT entitlement_id, user_id, product_id, source, store_key,
              CASE WHEN status = 'revoked' THEN 'active' ELSE 'revoked' END, starts_at, expires_at, updated_at
       FROM entitlements ORDER BY entitlement_id COLLATE "C" LIMIT 1)
      """.utf8
    ).write(to: queries.appendingPathComponent("entitlements.sql"))
    let out = world.out("repeats")
    let run = try world.run(["--queries", queries.path, "--no-history", "--quiet"], out: out)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try world.file(out, "findings.csv") == world.file(world.out("before"), "findings.csv"))
    let manifest =
      try JSONSerialization.jsonObject(with: world.file(out, "manifest.json")) as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    let entitlements = inputs.first { $0["role"] as? String == "app.entitlements" }
    let rejectsFile = try #require(entitlements?["rejectsFile"] as? String)
    let rejects = Self.rows(try world.text(out, rejectsFile)).dropFirst()
    #expect(
      rejects.contains {
        $0[1] == "\(world.entitlementsAccepted + 1)" && $0[2].hasPrefix("repeated entitlement_id '")
          && $0[2].hasSuffix("entitlements.sql line 1 with another status (that one is kept)")
      }, "\(rejects)")
    let credits = inputs.first { $0["role"] as? String == "app.credits" }
    #expect(credits?["duplicates"] as? Int == 1, "\(credits ?? [:])")
    #expect(
      credits?["read"] as? Int
        == (credits?["accepted"] as? Int ?? 0) + (credits?["rejected"] as? Int ?? 0) + 1)
  }

  @Test func eachFailureIsOneLineWithItsExitCode() throws {
    let world = try LoadedWorld()
    func expectOneLine(
      _ out: Binary.Output, _ code: Int32, _ fragment: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect(out.status == code, "\(out.stderr)", sourceLocation: sourceLocation)
      let lines = out.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(out.stderr)", sourceLocation: sourceLocation)
      #expect(lines.first?.hasPrefix("storerecon: error: ") == true, sourceLocation: sourceLocation)
      #expect(out.stderr.contains(fragment), "\(out.stderr)", sourceLocation: sourceLocation)
    }
    // Nothing listens on port 1: unreachable, 75.
    let unreachable = try Binary.run(
      [
        "run", "--config", world.config, "--date", Self.date, "--out", world.out("x"), "--quiet",
        "--database", "postgresql://nobody@127.0.0.1:1/nothing",
      ])
    expectOneLine(
      unreachable, 75, "cannot connect to the database: connection to server at \"127.0.0.1\", port 1 failed")

    // A contract-violating query: 78, naming the file and the extra column.
    let queries = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: queries) }
    // The world's config names app.credits and app.notifications: the folder must hold their queries too.
    for name in ["credentials", "assignments", "goodwill", "credits", "notifications"] {
      try Data((EmbeddedQueries.text(name) ?? "").utf8).write(
        to: queries.appendingPathComponent(name + ".sql"))
    }
    try Data(
      "SELECT *, 1 AS note FROM entitlements ORDER BY entitlement_id;\n".utf8
    ).write(to: queries.appendingPathComponent("entitlements.sql"))
    let violating = try world.run(["--queries", queries.path, "--quiet"], out: world.out("y"))
    expectOneLine(
      violating, 78,
      "\(queries.path)/entitlements.sql does not return the entitlements contract's columns: extra note")

    // A query the server cannot plan: 78 naming the file and the SQLSTATE.
    try Data("SELECT entitlement_id FROM no_such_table\n".utf8).write(
      to: queries.appendingPathComponent("entitlements.sql"))
    let broken = try world.run(["--queries", queries.path, "--quiet"], out: world.out("z"))
    expectOneLine(
      broken, 78,
      "\(queries.path)/entitlements.sql: relation \"no_such_table\" does not exist (SQLSTATE 42P01)")

    // A password in the connection string is refused before connecting: 78.
    let inline = try Binary.run(["db", "init", "--database", "postgresql://u:hunter2@127.0.0.1:1/db"])
    expectOneLine(inline, 78, "~/.pgpass or PGPASSWORD")
    #expect(!inline.stderr.contains("hunter2"))

    // db load into a database without the schema: 78, pointing at db init.
    let empty = try TestDatabase.create()
    defer { TestDatabase.drop(empty) }
    let load = try Binary.run(
      [
        "db", "load", "--database", TestDatabase.url(database: empty),
        world.dir.appendingPathComponent("app").path,
      ])
    expectOneLine(load, 78, "run storerecon db init first")
  }

  @Test(.enabled(if: TestDatabase.passwordAvailable, TestDatabase.passwordSkipMessage))
  func wrongPasswordIsOneLineAndExit77() throws {
    let url = try #require(TestDatabase.passwordURL)
    let wrong = try Binary.run(
      ["db", "init", "--database", url],
      environment: ["PGPASSWORD": "not-the-password", "PGPASSFILE": "/nonexistent"])
    #expect(wrong.status == 77, "\(wrong.stderr)")
    let lines = wrong.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(wrong.stderr)")
    #expect(wrong.stderr.contains("password authentication failed for user \"storerecon_pw\""))
    #expect(wrong.stderr.contains("(SQLSTATE 28P01)"))
    #expect(!wrong.stderr.contains("not-the-password"))

    let missing = try Binary.run(
      ["db", "init", "--database", url], environment: ["PGPASSWORD": nil, "PGPASSFILE": "/nonexistent"])
    #expect(missing.status == 77, "\(missing.stderr)")
    #expect(missing.stderr.split(separator: "\n").count == 1)
    #expect(missing.stderr.contains("asks for a password and none was given"))

    // The right password from the environment or a .pgpass file.
    let right = try Binary.run(
      ["db", "init", "--database", url], environment: ["PGPASSWORD": TestDatabase.password])
    #expect(right.status == 0, "\(right.stderr)")
    let passfile = try PostgresConnectErrorTests.passfile(TestDatabase.password ?? "")
    defer { try? FileManager.default.removeItem(atPath: passfile) }
    let viaFile = try Binary.run(
      ["db", "init", "--database", url], environment: ["PGPASSWORD": nil, "PGPASSFILE": passfile])
    #expect(viaFile.status == 0, "\(viaFile.stderr)")
  }
}
