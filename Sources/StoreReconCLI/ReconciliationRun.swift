import Foundation
package import StoreReconPlatform
package import StoreReconCore
import StoreReconIO
import StoreReconAppRows
import StoreReconPostgres
package import StoreReconReports
package import StoreReconWorkbooks

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
    /// `--allow-damaged`: a damaged input (config `damaged`) is reconciled and reported as ATTENTION
    /// instead of stopping the run with exit 65.
    package var allowDamaged = false
    /// A whole run, one partition of a partitioned run, or the merge of its partials (docs/partitions.md).
    package var mode: RunMode = .whole
    /// Set for `storerecon worker run`: the engine-keyed inputs' lines, spooled to files
    /// (docs/partitions.md#the-worker-protocol).
    package var worker: WorkerSetup?

    /// Creates a request.
    package init(
      configPath: String, date: CivilDate? = nil, outDirectory: String? = nil, database: String? = nil,
      queriesDirectory: String? = nil, history: Bool = true, lockTimeoutSeconds: Int = 600,
      allowMissing: Bool = false, allowDamaged: Bool = false
    ) {
      self.configPath = configPath
      self.date = date
      self.outDirectory = outDirectory
      self.database = database
      self.queriesDirectory = queriesDirectory
      self.history = history
      self.lockTimeoutSeconds = lockTimeoutSeconds
      self.allowMissing = allowMissing
      self.allowDamaged = allowDamaged
    }
  }

  /// One input the run reads: its config role, path and display name, and for the app's rows read
  /// from PostgreSQL its contract query.
  struct PlannedInput {
    var role: String
    var path: String
    var display: String
    /// The reporting currency, for the FX table.
    var reporting: Currency?
    /// Set for an app-row input read from the database.
    var query: ContractQuery?
    /// Checks the signatures of App Store transaction lines.
    var verifier: JWSVerifier?
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
    var request = request
    if case .partition = request.mode { request.history = false }  // the merge keeps the history
    var setup = try setUp(request, progress: progress)
    if let worker = request.worker { try worker.apply(to: &setup) }
    // The output folder's lock first: a second run into one --out waits for this one or refuses.
    let publication = try Publication.begin(
      setup.out, timeoutSeconds: request.lockTimeoutSeconds, progress: progress)
    defer { publication.discard() }
    // The database first: an unreachable server, a wrong password, a locked date or a query that does
    // not return its contract stops the run before any file is read.
    var session: DatabaseSession?
    if let uri = setup.databaseURI {
      session = try openDatabase(uri, request: request, setup: &setup, progress: progress)
    }
    let database = session?.connection.description
    // The rejects files are written into the temporary folder while the inputs are read.
    setup.staging = try publication.createStaging()
    // A worker judges no input damaged: it reads a share of it, and the merge judges the whole.
    var inputs = try readInputs(
      setup.plan, database: session?.connection,
      rejects: RejectRules(
        folder: setup.staging, damaged: setup.config.damaged,
        allowDamaged: request.allowDamaged || request.worker != nil, keepsAll: request.worker != nil),
      progress: progress, clock: clock, filter: request.mode.filter, engine: request.mode.engineInputs,
      strict: request.worker?.keyed ?? [])
    // The contract queries' read-only snapshot ends here; the run history writes after it.
    try session?.endSnapshot()
    let readMs = milliseconds(clock.now - started)
    var outcome = reconcile(setup, inputs, progress: progress, clock: clock)
    if case .merge(let merged) = request.mode {
      try checkPartials(merged, setup: setup, reports: inputs.reports)
      outcome = try mergedOutcome(outcome, merged, setup: setup, inputs: inputs)
      progress.note(
        "merged the partials: \(outcome.findings.count) findings, \(outcome.revenue.count) revenue rows")
    }
    outcome.duplicates = listed(outcome.duplicates, reports: inputs.reports)
    let asRead = inputs.reports
    applyDuplicates(outcome.duplicates, to: &inputs, progress: progress)
    if case .partition(let spec, _, let keymap) = request.mode {
      let result = try writePartial(
        spec, keymap: keymap, setup: setup, inputs: inputs, outcome: outcome, progress: progress,
        worker: request.worker.map { ($0, asRead) })
      try publication.publish()
      return result
    }
    if let store = session?.history {
      try recordHistory(
        store, &outcome, setup: setup, reports: inputs.reports, database: database, startedAt: startedAt,
        progress: progress, clock: clock)
    }
    var written = try writeReports(
      setup, &inputs, outcome, database: database, workbookOptions: workbookOptions, progress: progress,
      clock: clock)
    let timings: [(String, Int64)] = [
      ("read", readMs), ("reconcile", outcome.ms), ("experiments", written.experimentMs),
      ("write", written.writeMs), ("workbook", written.workbookMs),
      ("total", milliseconds(clock.now - started)),
    ]
    try writeManifest(
      &written, setup: setup, configPath: request.configPath, database: database, timings: timings)
    try publication.publish()
    progress.note("wrote \(written.files.count + 1) files to \(setup.out) (\(written.writeMs) ms)")
    session?.history?.unlock(date: setup.date)
    return written.result
  }

  /// What a run works from: the config, its calendar, the report date and as-of instant T, the output
  /// folder, the database (if any) and the planned inputs, with the missing ones (`--allow-missing`).
  struct Setup {
    var config: RunConfig
    var calendar: ReportCalendar
    var date: CivilDate
    var asOf: Instant
    var out: String
    /// The folder the reports are written into: the publication's temporary folder beside `out`.
    var staging: String
    var databaseURI: String?
    var plan: [PlannedInput]
    var missing: [Completeness.Missing]
    /// Files matched again (by another pattern or through a link), with the name they are read under.
    var repeats: [(repeated: String, readAs: String)] = []
    /// SHA-256 of the config file's bytes (a partitioned run's partials and merge compare it).
    var configDigest = ""
  }

  /// Reads the config, fixes the report date and T, and plans the inputs (the files the config's
  /// patterns match); warns of unknown config keys and missing inputs.
  static func setUp(_ request: Request, progress: any ProgressSink) throws(RunError) -> Setup {
    let config = try RunConfig.load(path: request.configPath)
    for key in config.unknownKeys {
      progress.note("warning: config key '\(key)' is not used by this version and was ignored")
    }
    guard let calendar = ReportCalendar(identifier: config.timeZone) else {
      throw RunError(.config, "config \(request.configPath): unknown time zone '\(config.timeZone)'")
    }
    let date = request.date ?? calendar.yesterday()
    let databaseURI = request.database ?? config.database
    guard databaseURI != nil || config.entitlements != nil else {
      throw RunError(
        .config, "config \(request.configPath): app.entitlements is required (or app.database / --database)")
    }
    let (planned, missing) = try planInputs(
      config, configPath: request.configPath, appFiles: databaseURI == nil, allowMissing: request.allowMissing
    )
    let (once, repeats) = readOnce(planned)
    var plan = once
    for r in repeats {
      progress.note("note: \(r.repeated) is the same file as \(r.readAs): read once")
    }
    try attachSignatures(config, to: &plan, progress: progress)
    for m in missing {
      progress.note(
        "warning: no file matches \(m.role) '\(m.pattern)' — reported as INCOMPLETE (--allow-missing)")
    }
    let out = request.outDirectory ?? "reports/\(date)"
    let asOf = calendar.asOf(date)
    // Store timestamps later than T + 10 years are damage (docs/inputs.md): set before any reader runs.
    StoreTimeWindow.set(asOf: asOf)
    var setup = Setup(
      config: config, calendar: calendar, date: date, asOf: asOf, out: out, staging: out,
      databaseURI: databaseURI, plan: plan, missing: missing, repeats: repeats)
    if case .whole = request.mode {
    } else {
      setup.configDigest = SHA256Digest.hex(of: try readBytes(request.configPath))
    }
    return setup
  }

  /// The database connection of a run whose app rows come from PostgreSQL, and its run history store
  /// (holding the report date's lock) when history is kept.
  struct DatabaseSession {
    let connection: PostgresConnection
    let history: RunHistoryStore?

    /// Ends the read-only transaction the contract queries ran in (docs/postgresql.md).
    func endSnapshot() throws(RunError) {
      do {
        try connection.endReadOnlySnapshot()
      } catch {
        throw RunError(error.databaseError("ending the contract queries' read-only transaction"))
      }
    }
  }

  /// Connects to the database, takes the report date's history lock (when history is kept), checks the
  /// contract queries and plans them as the app-row inputs.
  static func openDatabase(
    _ uri: String, request: Request, setup: inout Setup, progress: any ProgressSink
  ) throws(RunError) -> DatabaseSession {
    let config = setup.config
    let queries = try viaDatabase { () throws(DatabaseError) in
      try QueryFolder.contractQueries(
        directory: request.queriesDirectory ?? config.queries,
        optional: Set(
          [config.readsCredits ? .credits : nil, config.readsNotifications ? .notifications : nil].compactMap
          { $0 }))
    }
    let appFiles = [
      config.entitlements, config.credentials, config.assignments, config.goodwill, config.credits,
      config.notifications,
    ]
    if appFiles.contains(where: { $0 != nil }) {
      progress.note("app rows come from the database; the config's app CSV files are not read")
    }
    let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(uri) }
    progress.note("connected to \(connection.description) (server version \(connection.serverVersion))")
    var historyStore: RunHistoryStore?
    if request.history {
      let store = RunHistoryStore(connection: connection)
      do {
        try store.ensureTables()
      } catch {
        throw RunError(error.databaseError("creating the run history tables", queryCode: .software))
      }
      let date = setup.date
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
      var input = PlannedInput(role: query.contract.role, path: name, display: name, query: query)
      if query.contract == .notifications { input.verifier = try config.signatureVerifier() }
      setup.plan.append(input)
    }
    return DatabaseSession(connection: connection, history: historyStore)
  }

  /// What reading the inputs gave: the ledger builder holding every store record, the app's rows, and
  /// per input its report and its rejected rows (with the name of their file).
  struct Inputs {
    let builder: LedgerBuilder
    var rows: AppRowSet
    /// The stores' own money reports.
    var storeReports = StoreReportRows()
    var reports: [InputReport]
    /// Per input, its rejects file, written as the input was read.
    var rejectFiles: [RejectFileSink]
    /// What the summary must draw attention to: damaged inputs read with `--allow-damaged`, an empty
    /// entitlements contract beside store data.
    var attention: [String] = []
  }

  /// Where the rejects files go, and when an input is damaged.
  struct RejectRules {
    var folder: String
    var damaged: DamagedRule
    var allowDamaged: Bool
    /// Keep every reject in memory too (a worker's partial carries them).
    var keepsAll = false
  }

  /// Reads every planned input in plan order, then adds the files' sizes and checksums. The chunked
  /// inputs' chunks are parsed on all cores, ahead of the merge, across file boundaries (the workers
  /// checksum each file as they go); the other files are checksummed on another thread while they are
  /// read.
  static func readInputs(
    _ plan: [PlannedInput], database: PostgresConnection?, rejects rules: RejectRules,
    progress: any ProgressSink, clock: ContinuousClock, filter: LineageFilter? = nil,
    engine: [Int: EngineInput] = [:], strict: Set<Int> = []
  ) throws(RunError) -> Inputs {
    // First, before anything is read: a damaged gzip or zip is found whole (none of its rows counts),
    // and a file in the wrong role would reject every line and report a flood of false findings.
    let damagedContainers = verifyContainers(plan, progress: progress)
    for (index, input) in plan.enumerated() where damagedContainers[index] == nil {
      do {
        try InputReaders.checkRole(input)
      } catch {
        throw RunError(.dataError, error.description)
      }
    }
    let schedule = ReadSchedule()
    var prepared = plan.indices.map { i in
      damagedContainers[i] == nil && engine[i] == nil ? InputReaders.prepare(plan[i], on: schedule) : nil
    }
    let digests = FileDigest.Prefetch(
      plan.indices.filter { plan[$0].query == nil && prepared[$0] == nil }.map { plan[$0].path })
    var inputs = Inputs(builder: LedgerBuilder(), rows: AppRowSet(), reports: [], rejectFiles: [])
    inputs.builder.keeps = filter?.chain
    inputs.builder.strictInputs = Set(strict.map { Int32($0) })
    let refusals = keepNotifications(
      filter, in: &inputs.rows, counting: strict.contains { plan[$0].role.contains("notification") })
    var storeReports = StoreReportRows()
    var usedRejectNames = Set<String>()
    for (index, input) in plan.enumerated() {
      let name = rejectsFileName(input, index: index, used: &usedRejectNames)
      let sink = RejectFileSink(
        folder: rules.folder, name: name, writeLimit: rules.allowDamaged ? Int.max : rules.damaged.maxRejects)
      sink.keepsAll = rules.keepsAll
      var report = InputReport(role: input.role, path: input.display, rejectsFile: name)
      if let share = engine[index] {
        report = taken(share, input: input, rejects: sink, progress: progress)
        // The log was read (by the workers): its report is written from their partials.
        if input.role == "app.notifications" && inputs.rows.notifications == nil {
          inputs.rows.notifications = []
        }
      } else if let damage = damagedContainers[index] {
        report.error = damage
        progress.note("ERROR \(damage) — none of its rows is read; the run goes on without this file")
      } else {
        inputs.builder.beginInput(Int32(index))
        report = try readInput(
          input, index: index, rejects: sink, prepared: prepared[index], database: database,
          into: &inputs, storeReports: &storeReports, progress: progress, clock: clock)
      }
      inputs.rejectFiles.append(sink)
      inputs.reports.append(report)
      try checkDamaged(report, rejects: sink, rules: rules, attention: &inputs.attention, progress: progress)
    }
    if let line = emptyContractLine(inputs.reports) { inputs.attention.append(line) }
    if let filter {
      try keepLineages(filter, &inputs, plan: plan, strict: strict, notifications: refusals.total)
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
        inputs.reports[index].bytes = digest.bytes
        inputs.reports[index].sha256 = digest.sha256
      }
    }
    inputs.storeReports = storeReports
    prepared = []
    schedule.finish()
    FreeMemory.release()  // what the read's worker threads freed in their own arenas
    return inputs
  }

  /// The rejects file of input `index`: `rejects/<path with / as _>.csv`, numbered when taken already.
  static func rejectsFileName(_ input: PlannedInput, index: Int, used: inout Set<String>) -> String {
    let flat = input.display.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "_")
    var name = "rejects/\(flat).csv"
    if used.contains(name) { name = "rejects/\(index)-\(flat).csv" }
    used.insert(name)
    return name
  }

  /// Reads one input (a file, or a contract query from the database) into the builder or the app's
  /// rows, its rejected rows into `rejects`; returns its report. A file that cannot be read is
  /// reported, and the run goes on without it; a database failure stops the run.
  static func readInput(
    _ input: PlannedInput, index: Int, rejects: RejectFileSink, prepared: ScheduledRead?,
    database: PostgresConnection?, into inputs: inout Inputs, storeReports: inout StoreReportRows,
    progress: any ProgressSink, clock: ContinuousClock
  ) throws(RunError) -> InputReport {
    let readStart = clock.now
    var report = InputReport(role: input.role, path: input.display, rejectsFile: rejects.name)
    if let query = input.query, let database {
      report.database = database.description
      report.builtInQuery = query.builtIn
      report.bytes = Int64(query.text.utf8.count)
      report.sha256 = query.sha256
      report.counts = try viaDatabase { () throws(DatabaseError) in
        try DatabaseAppRows.read(
          query, connection: database, fileIndex: Int32(index), rejects: rejects, rows: &inputs.rows,
          notifications: InputReaders.notificationReader(input)
        ).counts
      }
    } else {
      let taken = inputs.builder.takenCount + inputs.rows.count + storeReports.count
      let rejected = rejects.count
      do {
        report.counts = try InputReaders.read(
          input, fileIndex: Int32(index), rejects: rejects, ledger: inputs.builder, rows: &inputs.rows,
          storeReports: &storeReports, report: &report, prepared: prepared)
      } catch {
        // A plain file that fails part-way (a line too long, an I/O error): the rows read before the
        // failure are in; the manifest counts them, and the line says so (docs/inputs.md).
        let accepted = inputs.builder.takenCount + inputs.rows.count + storeReports.count - taken
        report.counts = InputCounts(
          read: accepted + rejects.count - rejected, accepted: accepted, rejected: rejects.count - rejected)
        report.error = error.description
        let before =
          report.counts.read == 0
          ? "the run goes on without this file"
          : "the \(report.counts.read) rows before it are read (\(accepted) accepted), the rest of the file is not"
        progress.note("ERROR \(error.description) — \(before)")
      }
    }
    InputReaders.moveNotificationRecords(&inputs.rows, into: inputs.builder)
    report.elapsedMs = milliseconds(clock.now - readStart)
    let c = report.counts
    let from = input.query == nil ? "" : " from PostgreSQL"
    let rate = input.query == nil ? "" : ", \(c.read * 1000 / Int(max(report.elapsedMs, 1))) rows/s"
    progress.note(
      "read \(input.role) \(input.display)\(from): \(c.read) rows, \(c.accepted) accepted, "
        + "\(c.rejected) rejected (\(report.elapsedMs) ms\(rate))")
    return report
  }

  /// What reconciling gave: the ledger, the findings, revenue and counts, the active entitlements per
  /// store that could not be checked, and how long it took (the ledger's build included).
  struct Outcome {
    let ledger: Ledger
    var findings: [Finding]
    var revenue: [RevenueRow]
    var counts: [CountsRow]
    /// The transaction feed against the stores' own reports.
    var tieOut: TieOut
    /// The settlement reports' look-ups (for the readout's settled proceeds).
    let settled: SettledProceeds
    var unchecked: [Store: Int]
    /// Store records and resources read more than once (duplicates.csv).
    var duplicates: [RecordDuplicate] = []
    let ms: Int64
    /// With run history: what changed since the previous run.
    var changes: [FindingChange]?
    var delta: HistoryDelta?
    /// The recorded runs of the last ``FindingsTrend/dayCount`` days, this one included (run history only).
    var historyDays: [HistoryDayTotal] = []
    /// A merge's grants and notifications.csv fields (from the partials; a whole run works them out).
    var grants: [GrantRow]?
    var notificationFields: [String: [String]]?
    /// A merge's readouts, worked out from the partials' crediting passes.
    var readouts: [Readout]?
  }

  /// Builds the ledger as of T and applies the rules: the findings, the revenue table and the counts.
  static func reconcile(
    _ setup: Setup, _ inputs: Inputs, progress: any ProgressSink, clock: ContinuousClock
  ) -> Outcome {
    let config = setup.config
    let calendar = setup.calendar
    let rows = inputs.rows
    let reconcileStart = clock.now
    let ledger = inputs.builder.build(asOf: setup.asOf, catalog: config.catalog)
    var options = ReconcileOptions(asOf: setup.asOf)
    options.graceDays = config.graceDays
    options.toleranceMs = config.toleranceHours * 3_600_000
    options.storesWithData = config.storesWithExports
    options.catalog = config.catalog
    options.creditGraceMs = config.creditGraceHours * 3_600_000
    let log = rows.notifications.map {
      NotificationLog(
        received: $0, history: rows.notificationHistory, ageMs: config.notificationAgeHours * 3_600_000)
    }
    let findings = Reconciler.findings(
      ledger: ledger, entitlements: rows.entitlements, credentials: rows.credentials, goodwill: rows.goodwill,
      credits: rows.credits, notifications: log, options: options)
    let settings = tieOutSettings(config, reports: inputs.storeReports)
    let tieOut = TieOut.build(ledger: ledger, reports: inputs.storeReports, settings: settings)
    // The reports' look-ups, built once: revenue's proceeds and the readout's settled ones.
    let settled = SettledProceeds(reports: inputs.storeReports, settings: settings)
    let revenue = RevenueProceeds.apply(
      Revenue.rows(ledger: ledger, dayOf: { calendar.day(of: $0) }, rounding: config.rounding),
      ledger: ledger, reports: inputs.storeReports, settings: settings, lookups: settled,
      dayOf: { calendar.day(of: $0) })
    let counts = CountsRow.withReportUnits(
      CountsRow.rows(ledger: ledger, entitlements: rows.entitlements, asOf: setup.asOf),
      reports: inputs.storeReports, ledger: ledger, date: setup.date,
      appleDay: latestAppleSalesDay(settings, reports: inputs.storeReports, setup: setup),
      hasPlaySales: !config.playSales.isEmpty)
    let reconcileMs = milliseconds(clock.now - reconcileStart)
    let unchecked = Reconciler.uncheckedEntitlements(rows.entitlements, options: options)
    for (store, n) in unchecked.sorted(by: { $0.key < $1.key }) {
      progress.note(
        "warning: \(n) active \(store.rawValue) entitlements not checked: the config names no \(store.rawValue) export"
      )
    }
    progress.note(
      "reconciled \(ledger.chains.count) chains and \(rows.entitlements.count) entitlements as of \(setup.asOf): \(findings.count) findings (\(reconcileMs) ms)"
    )
    if let line = notificationsLine(rows, findings: findings) { progress.note(line) }
    if !tieOut.cells.isEmpty || !tieOut.orders.isEmpty {
      progress.note(tieOutLine(tieOut))
    }
    if !tieOut.skippedAppleDays.isEmpty || !tieOut.skippedPlayMonths.isEmpty {
      let periods =
        tieOut.skippedAppleDays.map(\.description)
        + tieOut.skippedPlayMonths.map {
          $0.description.prefix(7).description
        }
      progress.note(
        "note: not tied out (the period ends after \(setup.asOf), so the feed cannot show all of it yet): "
          + periods.joined(separator: ", "))
    }
    return Outcome(
      ledger: ledger, findings: findings, revenue: revenue, counts: counts, tieOut: tieOut, settled: settled,
      unchecked: unchecked, duplicates: inputs.builder.duplicates, ms: reconcileMs)
  }

  /// Run history: compares the findings with the previous run's (each finding gets its `since`), then
  /// replaces this date's history in one transaction.
  static func recordHistory(
    _ historyStore: RunHistoryStore, _ outcome: inout Outcome, setup: Setup, reports: [InputReport],
    database: String?, startedAt: String, progress: any ProgressSink, clock: ContinuousClock
  ) throws(RunError) {
    let historyStart = clock.now
    let date = setup.date
    let past: (previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate])
    do {
      past = try historyStore.history(before: date, keys: Array(Set(outcome.findings.map(\.key))))
    } catch {
      throw RunError(error.databaseError("reading the run history", queryCode: .software))
    }
    let compared = FindingHistory.compare(
      current: outcome.findings, date: date, previous: past.previous, firstSeen: past.firstSeen)
    outcome.findings = compared.findings
    outcome.changes = compared.changes
    outcome.delta = compared.delta
    let record = RunHistoryStore.RunRecord(
      date: date, asOf: setup.asOf,
      optionsJSON: Manifest.options(config: setup.config, database: database).rendered(),
      inputsJSON: JSONText.array(reports.map(Manifest.input)).rendered(), findings: compared.recorded,
      findingCount: compared.findings.count, delta: compared.delta,
      status: reports.contains { $0.error != nil } ? "inputs_failed" : "complete", startedAt: startedAt)
    do {
      try historyStore.record(record)
      outcome.historyDays = try historyStore.dayTotals(through: date, days: FindingsTrend.dayCount)
    } catch {
      throw RunError(error.databaseError("recording the run history", queryCode: .software))
    }
    let since = compared.delta.previousDate.map { "since \($0)" } ?? "first recorded run"
    progress.note(
      "history (\(since)): \(compared.delta.newCount) new, \(compared.delta.openCount) still open, "
        + "\(compared.delta.resolvedCount) resolved; "
        + "recorded (\(milliseconds(clock.now - historyStart)) ms)")
  }

  /// What writing the reports gave: the run's result, every file written with its bytes (for the
  /// manifest), and the timings of the experiments' readout, the writing and the workbooks.
  struct Written {
    var result: RunResult
    var files: [(String, [UInt8])]
    /// The files written as the run went (the rejects files): name, size, SHA-256.
    let streamed: [(name: String, bytes: Int64, sha256: String)]
    let experimentMs: Int64
    let writeMs: Int64
    let workbookMs: Int64
  }

  /// Writes the reports: the reconciliation workbook on another core while the experiments are read out
  /// and the CSV files and summaries are written, then the price-tests workbook. Frees the ledger and
  /// the app's rows once nothing reads them.
  static func writeReports(
    _ setup: Setup, _ inputs: inout Inputs, _ outcome: Outcome, database: String?,
    workbookOptions: ReconciliationWorkbook.Options, progress: any ProgressSink, clock: ContinuousClock
  ) throws(RunError) -> Written {
    let writeStart = clock.now
    let grants =
      outcome.grants
      ?? GrantRow.rows(
        goodwill: inputs.rows.goodwill, entitlements: inputs.rows.entitlements, asOf: setup.asOf)
    let fx = summaryFX(setup.config, rates: inputs.rows.fxRates, date: setup.date)
    // The status is decided once, here, before the workbook (whose first row shows it) is started.
    let facts = summaryFacts(setup, inputs, outcome, fx: fx)
    let status = ReportSummary.decideStatus(facts)
    let trend = RevenueTrend.build(revenue: facts.revenue, date: facts.date, fx: fx)
    let workbook = try startWorkbook(
      setup, inputs, outcome, grants: grants, status: status, trend: trend,
      findingsTrend: FindingsTrend.build(totals: outcome.historyDays, fx: fx),
      reportingTotals: ReportingTotals.build(facts), options: workbookOptions, clock: clock)
    let experimentStart = clock.now
    let readouts =
      outcome.readouts
      ?? computeReadouts(
        setup.config, ledger: outcome.ledger, rows: inputs.rows, settled: outcome.settled,
        calendar: setup.calendar)
    outcome.ledger.release()  // nothing below reads the ledger: free it before the reports are rendered
    let experimentMs = milliseconds(clock.now - experimentStart)
    for readout in readouts {
      progress.note(ExperimentSummary.progressLine(readout) + " (\(experimentMs) ms)")
      if !readout.fxGaps.isEmpty { progress.note("warning: " + ExperimentSummary.gapLine(readout)) }
    }
    // notifications.csv needs the notification log, which goes with the app's rows below.
    let notificationsFile = inputs.rows.notifications.map { _ in
      notificationsCSV(
        outcome.findings,
        fields: outcome.notificationFields
          ?? notificationFields(outcome.findings, rows: inputs.rows, asOf: setup.asOf))
    }
    inputs.rows = AppRowSet()  // likewise the app's rows
    let streamed = try finishRejects(inputs.rejectFiles)
    var (files, summary) = reportFiles(
      setup, outcome, grants: grants, readouts: readouts, facts: facts, status: status)
    if let notificationsFile { files.append(("notifications.csv", notificationsFile)) }
    for (name, bytes) in files {
      do {
        try AtomicFile.write(bytes, to: setup.staging + "/" + name)
      } catch {
        throw RunError(.ioError, error.description)
      }
    }
    let workbookMs = try finishWorkbooks(
      workbook, readouts: readouts, setup: setup, files: &files, progress: progress, clock: clock)
    // Writing, without the experiments' readout that ran meanwhile (timed on its own).
    let writeMs = milliseconds(clock.now - writeStart) - experimentMs
    var result = RunResult(
      date: setup.date, asOf: setup.asOf, outDirectory: setup.out, inputs: inputs.reports,
      findings: outcome.findings, revenue: outcome.revenue, counts: outcome.counts,
      files: files.map(\.0) + streamed.map(\.name) + ["manifest.json"], experiments: readouts,
      history: outcome.delta,
      summary: summary)
    result.uncheckedEntitlements = outcome.unchecked
    result.tieOut = outcome.tieOut
    result.repeatedFiles = setup.repeats.map { "\($0.repeated) (read as \($0.readAs))" }
    return Written(
      result: result, files: files, streamed: streamed, experimentMs: experimentMs, writeMs: writeMs,
      workbookMs: workbookMs)
  }

  /// The reconciliation workbook being written on its own thread.
  struct WorkbookWriting {
    let work: BackgroundWork<XLSXError>
    let path: String
    let time: WorkbookTime
  }

  /// Starts writing the reconciliation workbook (the larger part of the writing: one core for ~1.4 s at
  /// 1.5M users) on another core.
  static func startWorkbook(
    _ setup: Setup, _ inputs: Inputs, _ outcome: Outcome, grants: [GrantRow], status: RunStatus,
    trend: RevenueTrend?, findingsTrend: FindingsTrend?, reportingTotals: ReportingTotals?,
    options: ReconciliationWorkbook.Options, clock: ContinuousClock
  ) throws(RunError) -> WorkbookWriting {
    let workbookStart = clock.now
    var workbook = ReconciliationWorkbook.Content(
      date: setup.date, asOf: setup.asOf, timeZone: setup.config.timeZone, inputs: inputs.reports,
      findings: outcome.findings, revenue: outcome.revenue, counts: outcome.counts, grants: grants,
      rejects: shownRejects(inputs.rejectFiles),
      history: outcome.changes.map {
        WorkbookHistory(previousDate: outcome.delta?.previousDate, changes: $0)
      },
      tieOut: outcome.tieOut, payouts: PayoutTotal.payoutTotals(inputs.storeReports), status: status
    )
    workbook.revenueTrend = trend
    workbook.findingsTrend = findingsTrend
    workbook.reportingTotals = reportingTotals
    let path = setup.staging + "/" + ReconciliationWorkbook.fileName
    let time = WorkbookTime()
    let work = BackgroundWork { () throws(XLSXError) in
      try ReconciliationWorkbook.write(workbook, to: path, options: options)
      time.ms = milliseconds(clock.now - workbookStart)
    }
    return WorkbookWriting(work: work, path: path, time: time)
  }

  /// The CSV files (findings, revenue, counts, grants, the experiments', changes, rejects) and the
  /// summaries, with their bytes, in the order they are written; and the summary, whose status the run
  /// decided before (`status`, from `facts`).
  static func reportFiles(
    _ setup: Setup, _ outcome: Outcome, grants: [GrantRow], readouts: [Readout], facts: SummaryFacts,
    status: RunStatus
  ) -> ([(String, [UInt8])], ReportSummary) {
    let config = setup.config
    var files: [(String, [UInt8])] = [
      ("findings.csv", ReportTables.findingsCSV(outcome.findings)),
      ("revenue.csv", ReportTables.revenueCSV(outcome.revenue)),
      ("counts.csv", ReportTables.countsCSV(outcome.counts)),
      ("grants.csv", ReportTables.grantsCSV(grants)),
      ("tieout.csv", ReportTables.tieOutCSV(outcome.tieOut.cells)),
      ("tieout_orders.csv", ReportTables.tieOutOrdersCSV(outcome.tieOut.orders)),
      ("duplicates.csv", duplicatesCSV(outcome.duplicates, reports: facts.inputs)),
    ]
    if !config.experiments.isEmpty {
      files.append(("experiment_arms.csv", ExperimentTables.armsCSV(readouts)))
      files.append(("experiment_lineage.csv", ExperimentTables.lineageCSV(readouts)))
    }
    if let changes = outcome.changes { files.append(("changes.csv", ReportTables.changesCSV(changes))) }
    var facts = facts
    facts.experiments = readouts.isEmpty ? nil : readouts.map(ExperimentSummary.verdict)
    let summary = ReportSummary.build(facts, status: status)
    files.append(("summary.txt", Array(summary.text.utf8)))
    files.append(("summary.html", Array(summary.html.utf8)))
    return (files, summary)
  }

  /// What the summary is built from, price tests aside (their readout comes later): the run's values,
  /// run history, the FX conversion, the tie-out, completeness and what needs attention.
  static func summaryFacts(_ setup: Setup, _ inputs: Inputs, _ outcome: Outcome, fx: SummaryFX?)
    -> SummaryFacts
  {
    let config = setup.config
    var facts = SummaryFacts(
      version: StoreReconVersion.version, date: setup.date, asOf: setup.asOf, timeZone: config.timeZone,
      inputs: inputs.reports, findings: outcome.findings, revenue: outcome.revenue, alerts: config.alerts,
      incomplete: Completeness.reasons(
        date: setup.date, calendar: setup.calendar, inputs: inputs.reports, missing: setup.missing),
      history: outcome.changes.map {
        SummaryHistory(
          changes: $0, previousRunDate: outcome.delta?.previousDate, dayTotals: outcome.historyDays)
      },
      fx: fx, tieOut: outcome.tieOut, payouts: PayoutTotal.payoutTotals(inputs.storeReports),
      counts: outcome.counts)
    facts.attention = inputs.attention
    facts.inputNotes = [duplicatesLine(outcome.duplicates)]
    return facts
  }

  /// Waits for the reconciliation workbook, then writes the price-tests workbook (with experiments);
  /// adds both to `files` and returns the milliseconds they took.
  static func finishWorkbooks(
    _ workbook: WorkbookWriting, readouts: [Readout], setup: Setup, files: inout [(String, [UInt8])],
    progress: any ProgressSink, clock: ContinuousClock
  ) throws(RunError) -> Int64 {
    do {
      try workbook.work.wait()
    } catch {
      throw RunError(.ioError, error.description)
    }
    files.append((ReconciliationWorkbook.fileName, try readBytes(workbook.path)))
    let workbookBytes = files.last?.1.count ?? 0
    progress.note("wrote \(ReconciliationWorkbook.fileName): \(workbookBytes) bytes (\(workbook.time.ms) ms)")
    var priceMs: Int64 = 0
    if !readouts.isEmpty {
      let priceStart = clock.now
      let pricePath = setup.staging + "/" + PriceTestsWorkbook.fileName
      do {
        try PriceTestsWorkbook.write(readouts, date: setup.date, to: pricePath)
      } catch {
        throw RunError(.ioError, error.description)
      }
      files.append((PriceTestsWorkbook.fileName, try readBytes(pricePath)))
      let priceBytes = files.last?.1.count ?? 0
      priceMs = milliseconds(clock.now - priceStart)
      progress.note("wrote \(PriceTestsWorkbook.fileName): \(priceBytes) bytes (\(priceMs) ms)")
    }
    return workbook.time.ms + priceMs
  }

  /// Writes `manifest.json` (the result, the config, every output's size and checksum, the timings),
  /// then sorts the result's file list.
  static func writeManifest(
    _ written: inout Written, setup: Setup, configPath: String, database: String?, timings: [(String, Int64)]
  ) throws(RunError) {
    let manifest = Manifest.render(
      result: written.result, config: setup.config, configPath: configPath, database: database,
      outputs: written.files, streamed: written.streamed, timings: timings)
    do {
      try AtomicFile.write(manifest, to: setup.staging + "/manifest.json")
    } catch {
      throw RunError(.ioError, error.description)
    }
    written.result.files.sort()
  }

  /// The bytes of a file the run just wrote (for the manifest's size and checksum).
  static func readBytes(_ path: String) throws(RunError) -> [UInt8] {
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw RunError(.ioError, "cannot read back \(path): \(error.localizedDescription)")
    }
  }

  /// `d` in whole milliseconds.
  static func milliseconds(_ d: Duration) -> Int64 {
    d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
  }

  /// The files the config's store export patterns match, then the app's CSV files (with `appFiles`)
  /// and the FX table; with `allowMissing`, a pattern or optional file that matches nothing is listed as
  /// missing instead of stopping the run.
  static func planInputs(
    _ config: RunConfig, configPath: String, appFiles: Bool = true, allowMissing: Bool = false
  ) throws(RunError) -> ([PlannedInput], [Completeness.Missing]) {
    var plan: [PlannedInput] = []
    var missing: [Completeness.Missing] = []
    let groups: [(String, [String])] = [
      ("app_store.transactions", config.appStoreTransactions), ("play.sales", config.playSales),
      ("play.subscriptions", config.playSubscriptions), ("play.voided", config.playVoided),
      ("app_store.sales_reports", config.appStoreSalesReports),
      ("app_store.subscriber_reports", config.appStoreSubscriberReports),
      ("app_store.financial_reports", config.appStoreFinancialReports),
      ("play.earnings", config.playEarnings),
      ("app_store.notification_history", config.appStoreNotificationHistory),
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
        for m in matches {
          try checkInputFile(m.path, role: role, display: m.display, config: config)
          plan.append(PlannedInput(role: role, path: m.path, display: m.display))
        }
      }
    }
    let app: [(String, String?)] = [
      ("app.entitlements", config.entitlements), ("app.credentials", config.credentials),
      ("app.assignments", config.assignments), ("app.goodwill", config.goodwill),
      ("app.credits", config.credits), ("app.notifications", config.notifications),
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
      try checkInputFile(resolved, role: role, display: path, config: config)
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
    let table = FXRateBook(reporting: reporting, rows: rates)
    let rounding = config.rounding
    return SummaryFX(reportingCurrency: reporting, label: "\(file) on \(date)") { money in
      table.convert(money.minor, from: money.currency, on: date, rounding: rounding)
    }
  }

  /// The tie-out's settings: the fee schedule, the rounding and the Apple report days, whose spans the
  /// report time zone (`appStore.reportTimeZone`) decides.
  static func tieOutSettings(_ config: RunConfig, reports: StoreReportRows) -> TieOutSettings {
    var settings = TieOutSettings()
    settings.fees = config.fees
    settings.rounding = config.rounding
    if let zone = ReportCalendar(identifier: config.appStoreReportTimeZone) {
      settings.appleDays = TieOut.appleReportDays(reports).map {
        ReportDaySpan(day: $0, start: zone.start(of: $0), end: zone.start(of: $0.next))
      }
    }
    return settings
  }

  /// The latest Summary Sales report day over by T, at most the report date (the counts' daily check).
  static func latestAppleSalesDay(_ settings: TieOutSettings, reports: StoreReportRows, setup: Setup)
    -> CivilDate?
  {
    let salesDays = Set(reports.appleSales.map(\.day))
    return settings.appleDays.last { span in
      span.end <= setup.asOf && span.day <= setup.date && salesDays.contains(span.day)
    }?.day
  }

  /// One progress line: the tie-out's cells and orders per status.
  static func tieOutLine(_ tieOut: TieOut) -> String {
    func counts<S: Hashable & Comparable & RawRepresentable<String>>(_ statuses: [S]) -> String {
      var n: [S: Int] = [:]
      for s in statuses { n[s, default: 0] += 1 }
      return n.keys.sorted().map { "\(n[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
    }
    var line = "tie-out: \(tieOut.cells.count) cells (\(counts(tieOut.cells.map(\.status))))"
    if !tieOut.orders.isEmpty {
      line += "; \(tieOut.orders.count) Play orders (\(counts(tieOut.orders.map(\.status))))"
    }
    return line
  }

  /// The price-experiment readouts of the config's experiments (none without experiments).
  /// What the readout works with: the FX table, fees, catalog, rounding and the settled proceeds;
  /// `nil` without experiments or a reporting currency.
  static func experimentSettings(_ config: RunConfig, rows: AppRowSet, settled: SettledProceeds)
    -> ExperimentSettings?
  {
    guard !config.experiments.isEmpty, let reporting = config.reportingCurrency else { return nil }
    var settings = ExperimentSettings(
      fx: FXRateBook(reporting: reporting, rows: rows.fxRates), fees: config.fees, catalog: config.catalog,
      rounding: config.rounding)
    if !settled.isEmpty { settings.settled = settled }
    return settings
  }

  static func computeReadouts(
    _ config: RunConfig, ledger: Ledger, rows: AppRowSet, settled: SettledProceeds, calendar: ReportCalendar
  ) -> [Readout] {
    guard let settings = experimentSettings(config, rows: rows, settled: settled) else { return [] }
    return Readout.build(
      experiments: config.experiments, ledger: ledger, credentials: rows.credentials,
      assignments: rows.assignments, settings: settings, dayOf: { calendar.day(of: $0) })
  }
}

/// How long the reconciliation workbook took on its own thread (set there before the owner's `wait`
/// returns, read only after it).
final class WorkbookTime: @unchecked Sendable {
  /// The milliseconds it took.
  var ms: Int64 = 0
}
