package import StoreReconCore

/// Reading and recording the history: the same questions as PostgreSQL's store, in SQLite's dialect.
extension SQLiteRunHistory {
  /// The columns of a recorded finding, in ``finding(_:from:)``'s order.
  static let findingColumns =
    "finding_key, kind, reason, store, chain_key, user_id, product_id, currency, amount_minor"

  /// A recorded finding from `row`, whose columns from `offset` are ``findingColumns``.
  static func finding(_ row: [SQLite.Value], from offset: Int = 0) -> RecordedFinding {
    func text(_ i: Int) -> String { row[offset + i].text ?? "" }
    return RecordedFinding(
      key: text(0), kind: text(1), reason: text(2), store: text(3), chainKey: text(4), userId: text(5),
      productId: text(6), currency: row[offset + 7].text, amountMinor: row[offset + 8].integer)
  }

  /// Fills the connection's temporary table `wanted_keys` with `keys` (any number: no parameter limit).
  func fillWantedKeys(_ keys: [String]) throws(SQLite.Failure) {
    try connection.execute(
      "CREATE TEMP TABLE IF NOT EXISTS wanted_keys (finding_key TEXT PRIMARY KEY); DELETE FROM wanted_keys")
    try connection.runEach(
      "INSERT OR IGNORE INTO wanted_keys (finding_key) VALUES (?1)", keys.map { [.text($0)] })
  }

  package func history(before date: CivilDate, keys: [String]) throws(HistoryStoreError) -> (
    previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate]
  ) {
    let day = SQLite.Value.text(date.description)
    return try historyStep("reading the run history before \(date)") { () throws(SQLite.Failure) in
      var previous: FindingHistory.PreviousRun?
      let latest = try connection.query(
        """
        SELECT report_date FROM storerecon_runs WHERE report_date < ?1 AND backfill = 0
        ORDER BY report_date DESC LIMIT 1
        """, [day])
      if let text = latest.first?.first?.text, let previousDate = CivilDate.parse(text) {
        let rows = try connection.query(
          "SELECT \(Self.findingColumns) FROM storerecon_findings WHERE report_date = ?1 ORDER BY finding_key",
          [.text(text)])
        previous = FindingHistory.PreviousRun(date: previousDate, findings: rows.map { Self.finding($0) })
      }
      var wanted = Set(keys)
      for f in previous?.findings ?? [] { wanted.insert(f.key) }
      var firstSeen: [String: CivilDate] = [:]
      guard !wanted.isEmpty else { return (previous, firstSeen) }
      try fillWantedKeys(wanted.sorted())
      let seen = try connection.query(
        """
        SELECT f.finding_key, min(f.report_date) FROM storerecon_findings f
        JOIN wanted_keys w ON w.finding_key = f.finding_key
        WHERE f.report_date < ?1 GROUP BY f.finding_key
        """, [day])
      for row in seen {
        if let key = row[0].text, let d = row[1].text.flatMap(CivilDate.parse) { firstSeen[key] = d }
      }
      return (previous, firstSeen)
    }
  }

  package func dayTotals(through date: CivilDate, days: Int) throws(HistoryStoreError) -> [HistoryDayTotal] {
    let first = CivilDate(daysSinceEpoch: date.daysSinceEpoch - Int64(max(days, 1) - 1))
    // SQLite's sum() fails on a 64-bit overflow ("integer overflow") rather than wrapping.
    let rows = try historyStep("reading the findings trend through \(date)") { () throws(SQLite.Failure) in
      try connection.query(
        """
        SELECT f.report_date, f.kind, f.currency, count(*), coalesce(sum(f.amount_minor), 0)
        FROM storerecon_findings f JOIN storerecon_runs r ON r.run_id = f.run_id
        WHERE f.report_date BETWEEN ?1 AND ?2 AND r.backfill = 0
          AND f.kind NOT IN ('tieout_cell', 'tieout_order', 'rejected_rows')
        GROUP BY f.report_date, f.kind, f.currency
        ORDER BY f.report_date, f.kind, f.currency IS NULL, f.currency
        """, [.text(first.description), .text(date.description)])
    }
    return rows.compactMap { row in
      guard let day = row[0].text.flatMap(CivilDate.parse), let kind = row[1].text,
        let count = row[3].integer, let amount = row[4].integer
      else { return nil }
      return HistoryDayTotal(
        date: day, kind: kind, currency: row[2].text, findings: Int(count), amountMinor: amount)
    }
  }

  package func record(_ run: RunRecord) throws(HistoryStoreError) {
    let day = SQLite.Value.text(run.date.description)
    let locked = holdsLock
    try historyStep("recording the run of \(run.date)") { () throws(SQLite.Failure) in
      if !locked { try connection.execute("BEGIN IMMEDIATE") }
      do throws(SQLite.Failure) {
        try connection.query("DELETE FROM storerecon_findings WHERE report_date = ?1", [day])
        try connection.query("DELETE FROM storerecon_runs WHERE report_date = ?1", [day])
        try connection.query(
          """
          INSERT INTO storerecon_runs (report_date, as_of, tool_version, options, inputs, findings, new_findings,
            open_findings, resolved_findings, previous_date, status, started_at, finished_at, backfill)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?13)
          """,
          [
            day, .text(run.asOf.description), .text(StoreReconVersion.version), .text(run.optionsJSON),
            .text(run.inputsJSON), .integer(Int64(run.findingCount)), .integer(Int64(run.delta.newCount)),
            .integer(Int64(run.delta.openCount)), .integer(Int64(run.delta.resolvedCount)),
            run.delta.previousDate.map { .text($0.description) } ?? .null, .text(run.status),
            .text(run.startedAt), .integer(run.backfill ? 1 : 0),
          ])
        let runId = SQLite.Value.integer(connection.lastInsertRowID)
        try connection.runEach(
          """
          INSERT INTO storerecon_findings (run_id, report_date, finding_key, kind, reason, store, chain_key,
            user_id, product_id, currency, amount_minor) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
          """,
          run.findings.map { f in
            [
              runId, day, .text(f.key), .text(f.kind), .text(f.reason), .text(f.store), .text(f.chainKey),
              .text(f.userId), .text(f.productId), f.currency.map { .text($0) } ?? .null,
              f.amountMinor.map { .integer($0) } ?? .null,
            ]
          })
        try connection.execute("COMMIT")
      } catch {
        _ = try? connection.execute("ROLLBACK")
        throw error
      }
    }
    if locked { releasedByCommit() }
  }

  package func recorded(keys: [String]) throws(HistoryStoreError) -> [String: RecordedFinding] {
    guard !keys.isEmpty else { return [:] }
    return try historyStep("reading the recorded findings") { () throws(SQLite.Failure) in
      try fillWantedKeys(keys)
      let rows = try connection.query(
        """
        SELECT f.finding_key, f.kind, f.reason, f.store, f.chain_key, f.user_id, f.product_id, f.currency,
          f.amount_minor
        FROM storerecon_findings f JOIN wanted_keys w ON w.finding_key = f.finding_key
        WHERE f.report_date = (SELECT max(g.report_date) FROM storerecon_findings g WHERE g.finding_key = f.finding_key)
        """)
      var found: [String: RecordedFinding] = [:]
      for row in rows {
        let finding = Self.finding(row)
        found[finding.key] = finding
      }
      return found
    }
  }

  package func latestRun() throws(HistoryStoreError) -> CivilDate? {
    try historyStep("reading the latest recorded run") { () throws(SQLite.Failure) in
      try connection.query("SELECT max(report_date) FROM storerecon_runs").first?.first?.text.flatMap(
        CivilDate.parse)
    }
  }
}
