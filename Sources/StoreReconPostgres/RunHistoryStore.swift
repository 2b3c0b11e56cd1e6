package import StoreReconCore

/// The run history in PostgreSQL: `storerecon_runs` (one row per report date) and
/// `storerecon_findings` (one row per finding key of that run), plus the advisory lock that
/// serialises runs for one report date. Only fetching and storing lives here; the comparison is
/// ``FindingHistory``.
package struct RunHistoryStore {
  /// The history tables; idempotent.
  package static let schema = """
    CREATE TABLE IF NOT EXISTS storerecon_runs (
      run_id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      report_date       date NOT NULL UNIQUE,
      as_of             timestamptz NOT NULL,
      tool_version      text NOT NULL,
      options           jsonb NOT NULL,
      inputs            jsonb NOT NULL,
      findings          integer NOT NULL,
      new_findings      integer NOT NULL,
      open_findings     integer NOT NULL,
      resolved_findings integer NOT NULL,
      previous_date     date,
      status            text NOT NULL,
      started_at        timestamptz NOT NULL,
      finished_at       timestamptz NOT NULL,
      backfill          boolean NOT NULL DEFAULT false
    );
    -- A table made before backfills gains the column (no notice where it has it already).
    SET LOCAL client_min_messages = warning;
    ALTER TABLE storerecon_runs ADD COLUMN IF NOT EXISTS backfill boolean NOT NULL DEFAULT false;
    CREATE TABLE IF NOT EXISTS storerecon_findings (
      run_id       bigint NOT NULL REFERENCES storerecon_runs (run_id) ON DELETE CASCADE,
      report_date  date NOT NULL,
      finding_key  text NOT NULL,
      kind         text NOT NULL,
      reason       text NOT NULL,
      store        text NOT NULL,
      chain_key    text NOT NULL,
      user_id      text NOT NULL,
      product_id   text NOT NULL,
      currency     text,
      amount_minor bigint,
      PRIMARY KEY (report_date, finding_key)
    );
    CREATE INDEX IF NOT EXISTS storerecon_findings_key ON storerecon_findings (finding_key, report_date);
    CREATE INDEX IF NOT EXISTS storerecon_findings_run ON storerecon_findings (run_id);

    """

  /// The first key of the advisory lock (`'SREC'`); the second is the report date's days since 1970-01-01.
  package static let lockNamespace: Int32 = 0x5352_4543

  /// What one run records (the value both history stores take).
  package typealias RunRecord = StoreReconCore.RunRecord

  let connection: PostgresConnection

  /// A store on `connection`.
  package init(connection: PostgresConnection) { self.connection = connection }

  /// Creates the history tables when they are missing (or adds the `backfill` column an older version's
  /// table lacks) (checking first, so a role without CREATE
  /// can run once the tables exist).
  package func ensureTables() throws(PostgresError) {
    // The tables and the newest column (`backfill`): a database from an older version is upgraded once
    // by a role that may; a reader role never needs ALTER once the tables are current.
    let present = try connection.execute(
      """
      SELECT to_regclass('storerecon_runs') IS NOT NULL AND to_regclass('storerecon_findings') IS NOT NULL
        AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('storerecon_runs')
          AND attname = 'backfill' AND NOT attisdropped)
      """)
    if present.value(0, 0) == "t" { return }
    // One implicit transaction holding a lock, so two first runs do not race to create the tables.
    try connection.executeScript(
      "SELECT pg_advisory_xact_lock(\(RunHistoryStore.lockNamespace), -1);\n" + RunHistoryStore.schema)
  }

  /// Takes the advisory lock of `date` for this session, waiting at most `timeoutSeconds`;
  /// another session holding it longer is a 75 with a message saying so.
  package func lock(date: CivilDate, timeoutSeconds: Int, waiting: (String) -> Void) throws(DatabaseError) {
    let acquired: Bool
    do {
      acquired = try tryLock(date: date, timeoutSeconds: timeoutSeconds, waiting: waiting)
    } catch {
      throw error.databaseError("taking the run lock for \(date)", queryCode: .software)
    }
    guard acquired else {
      throw DatabaseError(
        .unavailable,
        "another storerecon run for \(date) holds its lock in \(connection.description) "
          + "(waited \(timeoutSeconds) s); try again when it has finished")
    }
  }

  /// `true` once the lock is held; `false` when another session kept it for `timeoutSeconds`.
  private func tryLock(date: CivilDate, timeoutSeconds: Int, waiting: (String) -> Void) throws(PostgresError)
    -> Bool
  {
    let keys: [String?] = [String(RunHistoryStore.lockNamespace), String(date.daysSinceEpoch)]
    let got = try connection.execute("SELECT pg_try_advisory_lock($1::int, $2::int)", keys)
    if got.value(0, 0) == "t" { return true }
    guard timeoutSeconds > 0 else { return false }
    waiting("another run for \(date) holds its lock; waiting up to \(timeoutSeconds) s")
    try connection.execute("SELECT set_config('lock_timeout', $1, false)", ["\(timeoutSeconds)s"])
    var acquired = true
    do {
      try connection.execute("SELECT pg_advisory_lock($1::int, $2::int)", keys)
    } catch {
      guard error.category == .lockTimeout else { throw error }
      acquired = false
    }
    try connection.execute("SET lock_timeout TO 0")
    return acquired
  }

  /// Releases the lock of `date` (the session's end releases it too).
  package func unlock(date: CivilDate) {
    _ = try? connection.execute(
      "SELECT pg_advisory_unlock($1::int, $2::int)",
      [String(RunHistoryStore.lockNamespace), String(date.daysSinceEpoch)])
  }

  /// The previous run (latest report date before `date` whose run was not a backfill) and, for `keys` and the previous run's
  /// keys, the earliest report date before `date` that saw each.
  package func history(before date: CivilDate, keys: [String]) throws(PostgresError) -> (
    previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate]
  ) {
    let day = date.description
    var previous: FindingHistory.PreviousRun?
    let latest = try connection.execute(
      """
      SELECT report_date::text FROM storerecon_runs WHERE report_date < $1::date AND NOT backfill
      ORDER BY report_date DESC LIMIT 1
      """,
      [day])
    if let text = latest.value(0, 0), let previousDate = CivilDate.parse(text) {
      let rows = try connection.execute(
        """
        SELECT finding_key, kind, reason, store, chain_key, user_id, product_id, currency, amount_minor::text
        FROM storerecon_findings WHERE report_date = $1::date ORDER BY finding_key COLLATE "C"
        """, [text])
      var findings: [RecordedFinding] = []
      findings.reserveCapacity(rows.rowCount)
      for r in 0..<rows.rowCount {
        findings.append(
          RecordedFinding(
            key: rows.value(r, 0) ?? "", kind: rows.value(r, 1) ?? "", reason: rows.value(r, 2) ?? "",
            store: rows.value(r, 3) ?? "", chainKey: rows.value(r, 4) ?? "", userId: rows.value(r, 5) ?? "",
            productId: rows.value(r, 6) ?? "", currency: rows.value(r, 7),
            amountMinor: rows.value(r, 8).flatMap { Int64($0) }))
      }
      previous = FindingHistory.PreviousRun(date: previousDate, findings: findings)
    }
    var wanted = Set(keys)
    for f in previous?.findings ?? [] { wanted.insert(f.key) }
    var firstSeen: [String: CivilDate] = [:]
    guard !wanted.isEmpty else { return (previous, firstSeen) }
    // Finding keys are hex digits: an array literal needs no quoting.
    let array = "{" + wanted.sorted().joined(separator: ",") + "}"
    let seen = try connection.execute(
      """
      SELECT finding_key, min(report_date)::text FROM storerecon_findings
      WHERE report_date < $1::date AND finding_key = ANY($2::text[]) GROUP BY finding_key
      """, [day, array])
    for r in 0..<seen.rowCount {
      if let key = seen.value(r, 0), let text = seen.value(r, 1), let d = CivilDate.parse(text) {
        firstSeen[key] = d
      }
    }
    return (previous, firstSeen)
  }

  /// Per report date from `days - 1` days before `date` through `date`, per kind and currency: the
  /// recorded findings of the runs that were not backfills and the sum of their amounts (the trend pictures). A sum beyond Int64 is an
  /// error, never a wrap.
  package func dayTotals(through date: CivilDate, days: Int) throws(PostgresError) -> [HistoryDayTotal] {
    let first = CivilDate(daysSinceEpoch: date.daysSinceEpoch - Int64(max(days, 1) - 1))
    let rows = try connection.execute(
      """
      SELECT report_date::text, kind, currency, count(*)::text, coalesce(sum(amount_minor), 0)::text
      FROM storerecon_findings WHERE report_date BETWEEN $1::date AND $2::date
        AND report_date IN (SELECT report_date FROM storerecon_runs WHERE NOT backfill)
        AND kind NOT IN ('tieout_cell', 'tieout_order', 'rejected_rows')
      GROUP BY report_date, kind, currency ORDER BY report_date, kind COLLATE "C", currency COLLATE "C"
      """, [first.description, date.description])
    var totals: [HistoryDayTotal] = []
    for r in 0..<rows.rowCount {
      guard let day = rows.value(r, 0).flatMap(CivilDate.parse), let kind = rows.value(r, 1),
        let count = rows.value(r, 3).flatMap({ Int($0) })
      else { continue }
      guard let amount = rows.value(r, 4).flatMap({ Int64($0) }) else {
        throw PostgresError(
          sqlState: nil,
          message:
            "the findings of \(day) (\(kind)) sum to \(rows.value(r, 4) ?? "?"), beyond a 64-bit amount",
          category: .data)
      }
      totals.append(
        HistoryDayTotal(
          date: day, kind: kind, currency: rows.value(r, 2), findings: count, amountMinor: amount))
    }
    return totals
  }

  /// Replaces the history of `run.date` with `run`, in one transaction; returns the new run id.
  @discardableResult
  package func record(_ run: RunRecord) throws(PostgresError) -> Int64 {
    do {
      return try connection.transaction { () throws -> Int64 in
        try connection.execute(
          "DELETE FROM storerecon_runs WHERE report_date = $1::date", [run.date.description])
        let inserted = try connection.execute(
          """
          INSERT INTO storerecon_runs (report_date, as_of, tool_version, options, inputs, findings, new_findings,
            open_findings, resolved_findings, previous_date, status, started_at, finished_at, backfill)
          VALUES ($1::date, $2::timestamptz, $3, $4::jsonb, $5::jsonb, $6::int, $7::int, $8::int, $9::int, $10::date,
            $11, $12::timestamptz, clock_timestamp(), $13::boolean)
          RETURNING run_id
          """,
          [
            run.date.description, run.asOf.description, StoreReconVersion.version, run.optionsJSON,
            run.inputsJSON,
            String(run.findingCount), String(run.delta.newCount), String(run.delta.openCount),
            String(run.delta.resolvedCount), run.delta.previousDate?.description, run.status, run.startedAt,
            run.backfill ? "true" : "false",
          ])
        let runId = inserted.value(0, 0) ?? ""
        let copy = try connection.copyIn(
          """
          COPY storerecon_findings (run_id, report_date, finding_key, kind, reason, store, chain_key, user_id,
            product_id, currency, amount_minor) FROM STDIN WITH (FORMAT csv)
          """)
        let day = run.date.description
        for f in run.findings {
          try copy.sendCSVRow([
            runId, day, f.key, f.kind, f.reason, f.store, f.chainKey, f.userId, f.productId, f.currency,
            f.amountMinor.map { String($0) },
          ])
        }
        try copy.finish()
        return Int64(runId) ?? 0
      }
    } catch let error as PostgresError {
      throw error
    } catch {
      throw PostgresError(sqlState: nil, message: "\(error)", category: .other)
    }
  }
}

extension RunHistoryStore {
  /// For each of `keys` that any recorded run saw, its row from the latest run that saw it.
  package func recorded(keys: [String]) throws(PostgresError) -> [String: RecordedFinding] {
    guard !keys.isEmpty else { return [:] }
    // Finding keys are hex digits: an array literal needs no quoting.
    let array = "{" + Set(keys).sorted().joined(separator: ",") + "}"
    let rows = try connection.execute(
      """
      SELECT DISTINCT ON (finding_key) finding_key, kind, reason, store, chain_key, user_id, product_id, currency,
        amount_minor::text
      FROM storerecon_findings WHERE finding_key = ANY($1::text[]) ORDER BY finding_key, report_date DESC
      """, [array])
    var found: [String: RecordedFinding] = [:]
    for r in 0..<rows.rowCount {
      let key = rows.value(r, 0) ?? ""
      found[key] = RecordedFinding(
        key: key, kind: rows.value(r, 1) ?? "", reason: rows.value(r, 2) ?? "", store: rows.value(r, 3) ?? "",
        chainKey: rows.value(r, 4) ?? "", userId: rows.value(r, 5) ?? "", productId: rows.value(r, 6) ?? "",
        currency: rows.value(r, 7), amountMinor: rows.value(r, 8).flatMap { Int64($0) })
    }
    return found
  }

  /// The latest report date with a recorded run; `nil` when nothing is recorded.
  package func latestRun() throws(PostgresError) -> CivilDate? {
    try connection.execute("SELECT max(report_date)::text FROM storerecon_runs").value(0, 0).flatMap(
      CivilDate.parse)
  }
}
