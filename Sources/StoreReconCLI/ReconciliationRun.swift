import Foundation
package import StoreReconPlatform
package import StoreReconCore
import StoreReconIO
import StoreReconAppRows
import StoreReconPostgres
package import StoreReconReports

/// One reconciliation run: read the config's inputs, build the ledger, apply the rules, write the reports.
package enum ReconciliationRun {
  /// What the user asked for on the command line.
  package struct Request: Sendable {
    /// Path of the JSON config.
    package var configPath: String
    /// Report date; `nil` means yesterday in the config's time zone.
    package var date: CivilDate?
    /// Output folder; `nil` means `reports/<date>`.
    package var outDirectory: String?
    /// PostgreSQL connection string for the app's rows; overrides the config's `app.database`.
    package var database: String?
    /// Folder of the contract queries; overrides the config's `app.queries`.
    package var queriesDirectory: String?
    /// Keep run history in the database (`since`, changes.csv); only with a database.
    package var history = true
    /// Seconds to wait for another run of the same report date to finish (advisory lock).
    package var lockTimeoutSeconds = 600
    /// `--allow-missing`: a configured store export or optional app file that matches no file is reported
    /// as INCOMPLETE in the summary instead of stopping the run with exit 66 (`app.entitlements` is
    /// always required).
    package var allowMissing = false

    /// Creates a request.
    package init(
      configPath: String, date: CivilDate? = nil, outDirectory: String? = nil, database: String? = nil,
      queriesDirectory: String? = nil, history: Bool = true, lockTimeoutSeconds: Int = 600,
      allowMissing: Bool = false
    ) {
      self.configPath = configPath
      self.date = date
      self.outDirectory = outDirectory
      self.database = database
      self.queriesDirectory = queriesDirectory
      self.history = history
      self.lockTimeoutSeconds = lockTimeoutSeconds
      self.allowMissing = allowMissing
    }
  }

  struct PlannedInput {
    var role: String
    var path: String
    var display: String
    /// The reporting currency, for the FX table.
    var reporting: Currency?
    /// Set for an app-row input read from the database.
    var query: ContractQuery?
  }

  /// Runs the job. Throws only for what stops a run (bad config, missing input, unwritable output);
  /// a malformed input file is reported in the result and the run goes on.
  package static func execute(
    _ request: Request, progress: any ProgressSink, workbookOptions: ReconciliationWorkbook.Options = .init()
  ) throws(RunError) -> RunResult {
    let clock = ContinuousClock()
    let started = clock.now
    // The machine clock, for the run history's metadata only.
    let startedAt = Instant(ms: Int64(Date().timeIntervalSince1970 * 1000)).description
    let config = try RunConfig.load(path: request.configPath)
    for key in config.unknownKeys {
      progress.note("warning: config key '\(key)' is not used by this version and was ignored")
    }
    guard let calendar = ReportCalendar(identifier: config.timeZone) else {
      throw RunError(.config, "config \(request.configPath): unknown time zone '\(config.timeZone)'")
    }
    let date = request.date ?? calendar.yesterday()
    let asOf = calendar.asOf(date)
    let out = request.outDirectory ?? "reports/\(date)"
    let databaseURI = request.database ?? config.database
    guard databaseURI != nil || config.entitlements != nil else {
      throw RunError(
        .config, "config \(request.configPath): app.entitlements is required (or app.database / --database)")
    }
    var (plan, missing) = try planInputs(
      config, configPath: request.configPath, appFiles: databaseURI == nil, allowMissing: request.allowMissing
    )
    for m in missing {
      progress.note(
        "warning: no file matches \(m.role) '\(m.pattern)' — reported as INCOMPLETE (--allow-missing)")
    }

    // The database first: an unreachable server, a wrong password, a locked date or a query that does
    // not return its contract stops the run before any file is read.
    var database: PostgresConnection?
    var historyStore: RunHistoryStore?
    if let databaseURI {
      let queries = try viaDatabase { () throws(DatabaseError) in
        try QueryFolder.contractQueries(directory: request.queriesDirectory ?? config.queries)
      }
      let appFiles = [config.entitlements, config.credentials, config.assignments, config.goodwill]
      if appFiles.contains(where: { $0 != nil }) {
        progress.note("app rows come from the database; the config's app CSV files are not read")
      }
      let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(databaseURI)
      }
      progress.note("connected to \(connection.description) (server version \(connection.serverVersion))")
      if request.history {
        let store = RunHistoryStore(connection: connection)
        do {
          try store.ensureTables()
        } catch {
          throw RunError(error.databaseError("creating the run history tables", queryCode: .software))
        }
        try viaDatabase { () throws(DatabaseError) in
          try store.lock(date: date, timeoutSeconds: request.lockTimeoutSeconds) { progress.note($0) }
        }
        historyStore = store
      }
      try viaDatabase { () throws(DatabaseError) in
        try DatabaseAppRows.checkContracts(queries, connection: connection)
      }
      for query in queries {
        let name = query.displayName
        plan.append(PlannedInput(role: query.contract.role, path: name, display: name, query: query))
      }
      database = connection
    }
    // The chunked inputs' chunks are parsed on all cores, ahead of the merge, across file boundaries;
    // the workers checksum each file as they go.
    let schedule = ReadSchedule()
    var prepared = plan.map { InputReaders.prepare($0, on: schedule) }
    // Checksums of the other files on another thread while they are read.
    let digests = FileDigest.Prefetch(
      plan.indices.filter { plan[$0].query == nil && prepared[$0] == nil }.map { plan[$0].path })
    let builder = LedgerBuilder()
    var rows = AppRowSet()
    var reports: [InputReport] = []
    var rejectFiles: [(String, [Reject])] = []
    var usedRejectNames = Set<String>()
    for (index, input) in plan.enumerated() {
      let readStart = clock.now
      let flat = input.display.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "_")
      var name = "rejects/\(flat).csv"
      if usedRejectNames.contains(name) { name = "rejects/\(index)-\(flat).csv" }
      usedRejectNames.insert(name)
      var report = InputReport(role: input.role, path: input.display, rejectsFile: name)
      let rejects = RejectList()
      if let query = input.query, let database {
        report.database = database.description
        report.builtInQuery = query.builtIn
        report.bytes = Int64(query.text.utf8.count)
        report.sha256 = query.sha256
        report.counts = try viaDatabase { () throws(DatabaseError) in
          try DatabaseAppRows.read(
            query, connection: database, fileIndex: Int32(index), rejects: rejects, rows: &rows
          ).counts
        }
      } else {
        do {
          report.counts = try InputReaders.read(
            input, fileIndex: Int32(index), rejects: rejects, ledger: builder, rows: &rows, report: &report,
            prepared: prepared[index])
        } catch {
          report.error = error.description
          progress.note("ERROR \(error.description) — the run goes on without this file")
        }
      }
      report.elapsedMs = milliseconds(clock.now - readStart)
      rejectFiles.append((name, rejects.rejects))
      reports.append(report)
      let c = report.counts
      let from = input.query == nil ? "" : " from PostgreSQL"
      let rate = input.query == nil ? "" : ", \(c.read * 1000 / Int(max(report.elapsedMs, 1))) rows/s"
      progress.note(
        "read \(input.role) \(input.display)\(from): \(c.read) rows, \(c.accepted) accepted, "
          + "\(c.rejected) rejected (\(report.elapsedMs) ms\(rate))")
    }
    // The checksums, last: the run does not wait for one while inputs remain to be read.
    for (index, input) in plan.enumerated() where input.query == nil {
      let digest: (bytes: Int64, sha256: String)?
      if let read = prepared[index] {
        digest = read.fileChecksum()
      } else {
        digest = digests.of(path: input.path)
      }
      if let digest {
        reports[index].bytes = digest.bytes
        reports[index].sha256 = digest.sha256
      }
    }
    prepared = []
    schedule.finish()
    FreeMemory.release()  // what the read's worker threads freed in their own arenas
    let readMs = milliseconds(clock.now - started)

    let reconcileStart = clock.now
    let ledger = builder.build(asOf: asOf, catalog: config.catalog)
    var options = ReconcileOptions(asOf: asOf)
    options.graceDays = config.graceDays
    options.toleranceMs = config.toleranceHours * 3_600_000
    options.storesWithData = config.storesWithExports
    var findings = Reconciler.findings(
      ledger: ledger, entitlements: rows.entitlements, credentials: rows.credentials, goodwill: rows.goodwill,
      options: options)
    let revenue = Revenue.rows(ledger: ledger, dayOf: { calendar.day(of: $0) }, rounding: config.rounding)
    let counts = CountsRow.rows(ledger: ledger, entitlements: rows.entitlements, asOf: asOf)
    let reconcileMs = milliseconds(clock.now - reconcileStart)
    let unchecked = Reconciler.uncheckedEntitlements(rows.entitlements, options: options)
    for (store, n) in unchecked.sorted(by: { $0.key < $1.key }) {
      progress.note(
        "warning: \(n) active \(store.rawValue) entitlements not checked: the config names no \(store.rawValue) export"
      )
    }
    progress.note(
      "reconciled \(ledger.chains.count) chains and \(rows.entitlements.count) entitlements as of \(asOf): \(findings.count) findings (\(reconcileMs) ms)"
    )
    // Run history: compare with the previous run, then replace this date's history in one transaction.
    var changes: [FindingChange]?
    var delta: HistoryDelta?
    if let historyStore {
      let historyStart = clock.now
      let past: (previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate])
      do {
        past = try historyStore.history(before: date, keys: Array(Set(findings.map(\.key))))
      } catch {
        throw RunError(error.databaseError("reading the run history", queryCode: .software))
      }
      let outcome = FindingHistory.compare(
        current: findings, date: date, previous: past.previous, firstSeen: past.firstSeen)
      findings = outcome.findings
      changes = outcome.changes
      delta = outcome.delta
      let record = RunHistoryStore.RunRecord(
        date: date, asOf: asOf,
        optionsJSON: Manifest.options(config: config, database: database?.description).rendered(),
        inputsJSON: JSONText.array(reports.map(Manifest.input)).rendered(), findings: outcome.recorded,
        findingCount: findings.count, delta: outcome.delta,
        status: reports.contains { $0.error != nil } ? "inputs_failed" : "complete", startedAt: startedAt)
      do {
        try historyStore.record(record)
      } catch {
        throw RunError(error.databaseError("recording the run history", queryCode: .software))
      }
      let since = outcome.delta.previousDate.map { "since \($0)" } ?? "first recorded run"
      progress.note(
        "history (\(since)): \(outcome.delta.newCount) new, \(outcome.delta.openCount) still open, "
          + "\(outcome.delta.resolvedCount) resolved; "
          + "recorded (\(milliseconds(clock.now - historyStart)) ms)")
    }

    let writeStart = clock.now
    let grants = GrantRow.rows(goodwill: rows.goodwill, entitlements: rows.entitlements, asOf: asOf)
    let fx = summaryFX(config, rates: rows.fxRates, date: date)
    let workbookStart = clock.now
    let workbook = ReconciliationWorkbook.Content(
      date: date, asOf: asOf, timeZone: config.timeZone, inputs: reports, findings: findings,
      revenue: revenue, counts: counts, grants: grants, rejects: rejectFiles.flatMap(\.1),
      history: changes.map { WorkbookHistory(previousDate: delta?.previousDate, changes: $0) })
    let workbookPath = out + "/" + ReconciliationWorkbook.fileName
    // The workbook, the larger part of the writing (one core for ~1.4 s at 1.5M users), is written on
    // another core while the experiments are read out and the CSV files and summaries are written.
    let workbookTime = WorkbookTime()
    let workbookWork = BackgroundWork { () throws(XLSXError) in
      try ReconciliationWorkbook.write(workbook, to: workbookPath, options: workbookOptions)
      workbookTime.ms = milliseconds(clock.now - workbookStart)
    }
    let experimentStart = clock.now
    let readouts = readExperiments(config, ledger: ledger, rows: rows, calendar: calendar)
    ledger.release()  // nothing below reads the ledger: free it before the reports are rendered
    let experimentMs = milliseconds(clock.now - experimentStart)
    for readout in readouts {
      progress.note(ExperimentSummary.progressLine(readout) + " (\(experimentMs) ms)")
      if !readout.fxGaps.isEmpty { progress.note("warning: " + ExperimentSummary.gapLine(readout)) }
    }

    rows = AppRowSet()  // likewise the app's rows
    var files: [(String, [UInt8])] = [
      ("findings.csv", ReportTables.findingsCSV(findings)),
      ("revenue.csv", ReportTables.revenueCSV(revenue)),
      ("counts.csv", ReportTables.countsCSV(counts)),
      ("grants.csv", ReportTables.grantsCSV(grants)),
    ]
    if !config.experiments.isEmpty {
      files.append(("experiment_arms.csv", ExperimentTables.armsCSV(readouts)))
      files.append(("experiment_lineage.csv", ExperimentTables.lineageCSV(readouts)))
    }
    if let changes { files.append(("changes.csv", ReportTables.changesCSV(changes))) }
    for (name, rejects) in rejectFiles { files.append((name, ReportTables.rejectsCSV(rejects))) }
    // Run history and price-test verdicts plug in as plain values when configured.
    let facts = SummaryFacts(
      version: StoreReconVersion.version, date: date, asOf: asOf, timeZone: config.timeZone, inputs: reports,
      findings: findings, revenue: revenue, alerts: config.alerts,
      incomplete: Completeness.reasons(date: date, calendar: calendar, inputs: reports, missing: missing),
      history: changes.map { SummaryHistory(changes: $0, previousRunDate: delta?.previousDate) },
      experiments: readouts.isEmpty ? nil : readouts.map(ExperimentSummary.verdict),
      fx: fx)
    let summary = ReportSummary.build(facts)
    files.append(("summary.txt", Array(summary.text.utf8)))
    files.append(("summary.html", Array(summary.html.utf8)))
    for (name, bytes) in files {
      do {
        try AtomicFile.write(bytes, to: out + "/" + name)
      } catch {
        throw RunError(.ioError, error.description)
      }
    }
    do {
      try workbookWork.wait()
    } catch {
      throw RunError(.ioError, error.description)
    }
    files.append((ReconciliationWorkbook.fileName, try readBytes(workbookPath)))
    let workbookBytes = files.last?.1.count ?? 0
    progress.note("wrote \(ReconciliationWorkbook.fileName): \(workbookBytes) bytes (\(workbookTime.ms) ms)")
    var priceMs: Int64 = 0
    if !readouts.isEmpty {
      let priceStart = clock.now
      let pricePath = out + "/" + PriceTestsWorkbook.fileName
      do {
        try PriceTestsWorkbook.write(readouts, date: date, to: pricePath)
      } catch {
        throw RunError(.ioError, error.description)
      }
      files.append((PriceTestsWorkbook.fileName, try readBytes(pricePath)))
      let priceBytes = files.last?.1.count ?? 0
      priceMs = milliseconds(clock.now - priceStart)
      progress.note("wrote \(PriceTestsWorkbook.fileName): \(priceBytes) bytes (\(priceMs) ms)")
    }
    // Writing, without the experiments' readout that ran meanwhile (timed on its own).
    let writeMs = milliseconds(clock.now - writeStart) - experimentMs
    var result = RunResult(
      date: date, asOf: asOf, outDirectory: out, inputs: reports, findings: findings, revenue: revenue,
      counts: counts,
      files: files.map(\.0) + ["manifest.json"], experiments: readouts, history: delta, summary: summary)
    result.uncheckedEntitlements = unchecked
    let manifest = Manifest.render(
      result: result, config: config, configPath: request.configPath, database: database?.description,
      outputs: files,
      timings: [
        ("read", readMs), ("reconcile", reconcileMs), ("experiments", experimentMs), ("write", writeMs),
        ("workbook", workbookTime.ms + priceMs),
        ("total", milliseconds(clock.now - started)),
      ])
    do {
      try AtomicFile.write(manifest, to: out + "/manifest.json")
    } catch {
      throw RunError(.ioError, error.description)
    }
    result.files.sort()
    progress.note("wrote \(files.count + 1) files to \(out) (\(writeMs) ms)")
    historyStore?.unlock(date: date)
    return result
  }

  /// The bytes of a file the run just wrote (for the manifest's size and checksum).
  static func readBytes(_ path: String) throws(RunError) -> [UInt8] {
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw RunError(.ioError, "cannot read back \(path): \(error.localizedDescription)")
    }
  }

  static func milliseconds(_ d: Duration) -> Int64 {
    d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
  }

  static func planInputs(
    _ config: RunConfig, configPath: String, appFiles: Bool = true, allowMissing: Bool = false
  ) throws(RunError) -> ([PlannedInput], [Completeness.Missing]) {
    var plan: [PlannedInput] = []
    var missing: [Completeness.Missing] = []
    let groups: [(String, [String])] = [
      ("app_store.transactions", config.appStoreTransactions), ("play.sales", config.playSales),
      ("play.subscriptions", config.playSubscriptions), ("play.voided", config.playVoided),
    ]
    for (role, patterns) in groups {
      for pattern in patterns {
        let matches = Glob.expand(pattern, base: config.baseDirectory)
        guard !matches.isEmpty else {
          if allowMissing {
            missing.append(Completeness.Missing(role: role, pattern: pattern))
            continue
          }
          throw RunError(
            .missingInput, "no file matches \(role) '\(pattern)' (relative to \(config.baseDirectory))")
        }
        for m in matches { plan.append(PlannedInput(role: role, path: m.path, display: m.display)) }
      }
    }
    let app: [(String, String?)] = [
      ("app.entitlements", config.entitlements), ("app.credentials", config.credentials),
      ("app.assignments", config.assignments), ("app.goodwill", config.goodwill),
      ("fx.rates", config.fxRates),
    ]
    for (role, path) in app where appFiles || role == "fx.rates" {
      guard let path else { continue }
      let resolved = config.resolve(path)
      guard FileManager.default.fileExists(atPath: resolved) else {
        if allowMissing && role != "app.entitlements" {
          missing.append(Completeness.Missing(role: role, pattern: path))
          continue
        }
        throw RunError(.missingInput, "\(role) file \(resolved) does not exist")
      }
      plan.append(
        PlannedInput(role: role, path: resolved, display: path, reporting: config.reportingCurrency))
    }
    return (plan, missing)
  }

  /// The summary's conversion into the reporting currency (ranking, `maxAmountMinor` thresholds): the
  /// FX table's rate on the report date (or the latest earlier one), rounded by the config's rule;
  /// `nil` without an FX table.
  static func summaryFX(_ config: RunConfig, rates: [FXRate], date: CivilDate) -> SummaryFX? {
    guard let reporting = config.reportingCurrency, let file = config.fxRates, !rates.isEmpty else {
      return nil
    }
    let table = FXTable(reporting: reporting, rows: rates)
    let rounding = config.rounding
    return SummaryFX(reportingCurrency: reporting, label: "\(file) on \(date)") { money in
      table.convert(money.minor, from: money.currency, on: date, rounding: rounding)
    }
  }

  /// The price-experiment readouts of the config's experiments (none without experiments).
  static func readExperiments(_ config: RunConfig, ledger: Ledger, rows: AppRowSet, calendar: ReportCalendar)
    -> [Readout]
  {
    guard !config.experiments.isEmpty, let reporting = config.reportingCurrency else { return [] }
    let settings = ExperimentSettings(
      fx: FXTable(reporting: reporting, rows: rows.fxRates), fees: config.fees, catalog: config.catalog,
      rounding: config.rounding)
    return Readout.build(
      experiments: config.experiments, ledger: ledger, credentials: rows.credentials,
      assignments: rows.assignments, settings: settings, dayOf: { calendar.day(of: $0) })
  }
}

/// How long the reconciliation workbook took on its own thread (set there before the owner's `wait`
/// returns, read only after it).
private final class WorkbookTime: @unchecked Sendable {
  var ms: Int64 = 0
}
