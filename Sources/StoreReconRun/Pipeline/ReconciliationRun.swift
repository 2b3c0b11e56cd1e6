import Foundation
package import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO
package import StoreReconImporters
package import StoreReconAppRows
package import StoreReconReports

/// Where a run reads the app's rows when they are in a database (PostgreSQL, in the command line).
package protocol AppRowDatabase {
  /// The connection as the manifest names it (no password).
  var description: String { get }
  /// Reads one contract query's rows into `rows`; returns their counts.
  func read(
    _ query: ContractQuery, fileIndex: Int32, rejects: any RejectSink, rows: inout AppRowSet,
    notifications: NotificationCSVReader
  ) throws(RunError) -> InputCounts
}

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
    /// Keep run history (`since`, changes.csv): in SQLite or PostgreSQL, docs/history.md; `--no-history`.
    package var history = true
    /// Seconds to wait for another run of the same report date to finish (the history's lock).
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
    /// `--memory`: the working set a run may hold, in bytes (docs/partitions.md#runs-in-passes).
    package var memoryBytes = ReconciliationRun.defaultMemoryBytes
    /// A pass or the merge of a run in passes: the app rows of other lineages are left out while they
    /// are read (``WhileReading``).
    package var filtersWhileReading = false
    /// A pass of a run in passes: the partition spills charges.csv's lines beside its partial
    /// (``ChargeSpill``) instead of writing them into it.
    package var spillCharges = false
    /// `--from-scratch`: no snapshot is read and every signature is verified (both are written anew).
    package var fromScratch = false

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
  package struct PlannedInput {
    package var role: String
    package var path: String
    package var display: String
    /// The reporting currency, for the FX table.
    package var reporting: Currency?
    /// Set for an app-row input read from the database.
    package var query: ContractQuery?
    /// Checks the signatures of App Store transaction lines.
    package var verifier: JWSVerifier?
    /// What the last run parsed of this file, and what this run parses (docs/snapshot.md).
    package var snapshot: ParseSnapshot?
    /// For `stripe.objects` and `stripe.events`: what the last run read of this file
    /// (docs/snapshot.md#stripe).
    package var stripeSnapshot: StripeSnapshot?
    /// For `stripe.objects`: the metadata key naming the app's user (`stripe.userMetadataKey`).
    package var stripeUserKey = "app_user_id"
    /// The span the store readers take timestamps in: T + 10 years, set by ``setUp(_:progress:)``.
    package var window = StoreTimeWindow.standalone

    /// An input of `role` at `path`, named `display`.
    package init(
      role: String, path: String, display: String, reporting: Currency? = nil, query: ContractQuery? = nil,
      verifier: JWSVerifier? = nil
    ) {
      (self.role, self.path, self.display) = (role, path, display)
      (self.reporting, self.query, self.verifier) = (reporting, query, verifier)
    }
  }

  /// What a run works from: the config, its calendar, the report date and as-of instant T, the output
  /// folder, the database (if any) and the planned inputs, with the missing ones (`--allow-missing`).
  package struct Setup {
    package var config: RunConfig
    package var calendar: ReportCalendar
    package var date: CivilDate
    package var asOf: Instant
    package var out: String
    /// The folder the reports are written into: the publication's temporary folder beside `out`.
    package var staging: String
    package var databaseURI: String?
    package var plan: [PlannedInput]
    package var missing: [Completeness.Missing]
    /// Files matched again (by another pattern or through a link), with the name they are read under.
    package var repeats: [(repeated: String, readAs: String)] = []
    /// SHA-256 of the config file's bytes (a partitioned run's partials and merge compare it).
    package var configDigest = ""
    /// The record of verified signatures this run reads and saves after the read (whole runs only).
    package var verifiedRecord: VerifiedRecordFile?
  }

  /// Reads the config, fixes the report date and T, and plans the inputs (the files the config's
  /// patterns match); warns of unknown config keys and missing inputs.
  package static func setUp(_ request: Request, progress: any ProgressSink) throws(RunError) -> Setup {
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
    let (once, repeats) = try readOnce(planned)
    var plan = once
    for r in repeats {
      progress.note("note: \(r.repeated) is the same file as \(r.readAs): read once")
    }
    let out = request.outDirectory ?? "reports/\(date)"
    // The record of verified signatures serves one whole run at a time (not a partition or a worker).
    var recordPaths: (record: String, key: String)?
    if case .whole = request.mode, request.worker == nil {
      recordPaths = config.verifiedRecordPaths(reportRoot: HistoryLocation.reportRoot(ofOut: out))
    }
    let record = try attachSignatures(
      config, to: &plan, record: recordPaths, fromScratch: request.fromScratch, progress: progress)
    for m in missing {
      progress.note(
        "warning: no file matches \(m.role) '\(m.pattern)' — reported as INCOMPLETE (--allow-missing)")
    }
    let asOf = calendar.asOf(date)
    // Store timestamps later than T + 10 years are damage (docs/inputs.md): every reader is handed the
    // window as a value, through its planned input.
    let window = StoreTimeWindow(asOf: asOf)
    for index in plan.indices { plan[index].window = window }
    if let record { attachSnapshots(&plan, record: record, asOf: asOf, fromScratch: request.fromScratch) }
    var setup = Setup(
      config: config, calendar: calendar, date: date, asOf: asOf, out: out, staging: out,
      databaseURI: databaseURI, plan: plan, missing: missing, repeats: repeats)
    setup.verifiedRecord = record
    if case .whole = request.mode {
    } else {
      setup.configDigest = SHA256Digest.hex(of: try readBytes(request.configPath))
    }
    return setup
  }

  /// What reading the inputs gave: the ledger builder holding every store record, the app's rows, and
  /// per input its report and its rejected rows (with the name of their file).
  package struct Inputs {
    package let builder: LedgerBuilder
    package var rows: AppRowSet
    /// The stores' own money reports.
    package var storeReports = StoreReportRows()
    package var reports: [InputReport]
    /// Per input, its rejects file, written as the input was read.
    package var rejectFiles: [RejectFileSink]
    /// What the summary must draw attention to: damaged inputs read with `--allow-damaged`, an empty
    /// entitlements contract beside store data.
    package var attention: [String] = []
    /// Stripe ids that name a chain other than by its key, mapped to the key (``StripeImport/aliases``).
    package var stripeAliases: [String: String] = [:]
    /// Stripe disputes still open, per chain key (``StripeImport/openDisputes``).
    package var stripeDisputes: [String: [StripeOpenDispute]] = [:]
    /// The Stripe feed's charges and refunds of the chains this run keeps (a whole run: all of them),
    /// what a partition carries to the merge for the Stripe tie-out.
    package var stripeFeed: [StripeFeedLine] = []
  }

  /// Which app rows of other lineages a run in passes leaves out while it reads them
  /// (docs/partitions.md#runs-in-passes), rather than after the read.
  package enum WhileReading: Sendable {
    /// Every contract's: a pass.
    case everyRow
    /// Credentials' and goodwill's, not entitlements' or credits' (whose repeated ids the rejects name
    /// with the column that differs): the merge.
    case rowsWithoutIds
  }

  /// Where the rejects files go, and when an input is damaged.
  package struct RejectRules {
    package var folder: String
    package var damaged: DamagedRule
    package var allowDamaged: Bool
    /// Keep every reject in memory too (a worker's partial carries them).
    package var keepsAll = false

    /// The rules for rejects written into `folder`.
    package init(folder: String, damaged: DamagedRule, allowDamaged: Bool, keepsAll: Bool = false) {
      (self.folder, self.damaged, self.allowDamaged, self.keepsAll) = (
        folder, damaged, allowDamaged, keepsAll
      )
    }
  }

  /// Reads every planned input in plan order, then adds the files' sizes and checksums. The chunked
  /// inputs' chunks are parsed on all cores, ahead of the merge, across file boundaries (the workers
  /// checksum each file as they go); the other files are checksummed on another thread while they are
  /// read.
  package static func readInputs(
    _ plan: [PlannedInput], database: (any AppRowDatabase)?, rejects rules: RejectRules,
    progress: any ProgressSink, clock: ContinuousClock, filter: LineageFilter? = nil,
    engine: [Int: EngineInput] = [:], strict: Set<Int> = [], whileReading: WhileReading? = nil
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
    // (a Stripe file with a snapshot is hashed by its read, before it is read)
    let digests = FileDigest.Prefetch(
      plan.indices.filter { plan[$0].query == nil && prepared[$0] == nil && plan[$0].stripeSnapshot == nil }
        .map { plan[$0].path })
    var inputs = Inputs(builder: LedgerBuilder(), rows: AppRowSet(), reports: [], rejectFiles: [])
    inputs.builder.keeps = filter?.chain
    inputs.builder.strictInputs = Set(strict.map { Int32($0) })
    if let whileReading, let filter, strict.isEmpty {
      inputs.rows.keepsUser = filter.user
      inputs.rows.keepsUserOfIdRows = whileReading == .everyRow
    }
    let refusals = keepNotifications(
      filter, in: &inputs.rows, counting: strict.contains { plan[$0].role.contains("notification") })
    // Stripe's files are read together, on another thread while the other inputs are read before them.
    let stripeRead = StripeReadAhead(plan, skipping: damagedContainers, engine: engine, progress: progress)
    var storeReports = StoreReportRows(stripeFeed: [])
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
      } else if StripeReadAhead.roles.contains(input.role), let share = stripeRead.result?.files[Int32(index)]
      {
        report = takeStripe(share, input, index, rejects: sink, into: inputs.builder, progress)
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
    let stripe = stripeRead.result
    storeReports.stripeFeed = stripe?.feed ?? []
    settleRows(&inputs, stripe: stripe)
    inputs.stripeFeed = keptFeed(stripe?.feed ?? [], filter)
    if let filter {
      try keepLineages(filter, &inputs, plan: plan, strict: strict, notifications: refusals.total)
    }
    // The checksums, last: the run does not wait for one while inputs remain to be read.
    addChecksums(plan, prepared: prepared, digests: digests, stripe: stripe, to: &inputs.reports)
    inputs.storeReports = storeReports
    prepared = []
    schedule.finish()
    FreeMemory.release()  // what the read's worker threads freed in their own arenas
    return inputs
  }

  /// Each file's size and SHA-256 into its report: from its scheduled read where it had one (the
  /// workers checksummed it as they went), from the Stripe read for a Stripe file with a snapshot (it
  /// hashed the file first), else from the prefetch that ran beside the read.
  static func addChecksums(
    _ plan: [PlannedInput], prepared: [ScheduledRead?], digests: FileDigest.Prefetch, stripe: StripeImport?,
    to reports: inout [InputReport]
  ) {
    for (index, input) in plan.enumerated() where input.query == nil {
      let digest: (bytes: Int64, sha256: String)?
      if let read = prepared[index] {
        digest = read.fileChecksum()
      } else if input.stripeSnapshot != nil {
        digest = stripe?.files[Int32(index)]?.digest ?? FileDigest.of(path: input.path)
      } else {
        digest = digests.of(path: input.path)
      }
      if let digest {
        reports[index].bytes = digest.bytes
        reports[index].sha256 = digest.sha256
      }
    }
  }

  /// The rejects file of input `index`: `rejects/<path with / as _>.csv`, numbered when taken already.
  package static func rejectsFileName(_ input: PlannedInput, index: Int, used: inout Set<String>) -> String {
    let flat = input.display.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "_")
    var name = "rejects/\(flat).csv"
    if used.contains(name) { name = "rejects/\(index)-\(flat).csv" }
    used.insert(name)
    return name
  }

  /// Reads one input (a file, or a contract query from the database) into the builder or the app's
  /// rows, its rejected rows into `rejects`; returns its report. A file that cannot be read is
  /// reported, and the run goes on without it; a database failure stops the run.
  package static func readInput(
    _ input: PlannedInput, index: Int, rejects: RejectFileSink, prepared: ScheduledRead?,
    database: (any AppRowDatabase)?, into inputs: inout Inputs, storeReports: inout StoreReportRows,
    progress: any ProgressSink, clock: ContinuousClock
  ) throws(RunError) -> InputReport {
    let readStart = clock.now
    var report = InputReport(role: input.role, path: input.display, rejectsFile: rejects.name)
    if let query = input.query, let database {
      report.database = database.description
      report.builtInQuery = query.builtIn
      report.bytes = Int64(query.text.utf8.count)
      report.sha256 = query.sha256
      report.counts = try database.read(
        query, fileIndex: Int32(index), rejects: rejects, rows: &inputs.rows,
        notifications: InputReaders.notificationReader(input))
    } else {
      let taken = inputs.builder.takenCount + inputs.rows.count + storeReports.count
      let rejected = rejects.count
      let meter = readMeter(input, progress: progress)
      do {
        report.counts = try ReadProgress.during(meter) { () throws(InputError) -> InputCounts in
          try InputReaders.read(
            input, fileIndex: Int32(index), rejects: rejects, ledger: inputs.builder, rows: &inputs.rows,
            storeReports: &storeReports, report: &report, prepared: prepared)
        }
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
  package struct Outcome {
    package let ledger: Ledger
    package var findings: [Finding]
    package var revenue: [RevenueRow]
    package var counts: [CountsRow]
    /// The transaction feed against the stores' own reports.
    package var tieOut: TieOut
    /// The settlement reports' look-ups (for the readout's settled proceeds).
    package let settled: SettledProceeds
    package var unchecked: [Store: Int]
    /// Store records and resources read more than once (duplicates.csv).
    package var duplicates: [RecordDuplicate] = []
    package let ms: Int64
    /// With run history: what changed since the previous run.
    package var changes: [FindingChange]?
    package var delta: HistoryDelta?
    /// The recorded runs of the last ``FindingsTrend/dayCount`` days, this one included (run history only).
    package var historyDays: [HistoryDayTotal] = []
    /// With run history: this run's date is earlier than the latest recorded one (a backfill, left out of
    /// the trend).
    package var backfill = false
    /// The run's cases with their states (docs/cases.md); set after the history is compared.
    package var cases: CaseBook?
    /// A merge's grants and notifications.csv fields (from the partials; a whole run works them out).
    package var grants: [GrantRow]?
    package var notificationFields: [String: [String]]?
    /// A merge's readouts, worked out from the partials' crediting passes.
    package var readouts: [Readout]?
    /// The rules left out because an input they need failed (their findings dropped).
    package var skipped = SkippedRules()
    /// Revenue recognised and deferred (``RevenueRecognition``; a merge's from the partials).
    package var recognition = RecognitionSums()
    /// charges.csv's lines: a merge's from the partials; `nil` for a run that has them in its ledger,
    /// rendered from it as the file is written (``ChargeTables/write(ledger:settled:dayOf:charges:imports:)``).
    package var charges: [ChargeLine]?
    /// A run in passes: the passes' charge spill files, merged into charges.csv as it is written.
    package var chargeSpills: [String] = []
  }

  /// Builds the ledger as of T and applies the rules: the findings, the revenue table and the counts.
  package static func reconcile(
    _ setup: Setup, _ inputs: Inputs, progress: any ProgressSink, clock: ContinuousClock
  ) -> Outcome {
    let config = setup.config
    let calendar = setup.calendar
    let rows = inputs.rows
    let reconcileStart = clock.now
    // A refund any source states counts (docs/rules.md#free_entitlementrefunded).
    inputs.builder.refundEvidence = RefundEvidence(
      earnings: inputs.storeReports.playEarnings, received: rows.notifications ?? [],
      history: rows.notificationHistory)
    let ledger = inputs.builder.build(asOf: setup.asOf, catalog: config.catalog)
    var steps = StepTimes(clock: clock, start: reconcileStart)
    steps.mark("ledger")
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
    // The finding rules and the tie-out with revenue read the ledger only: they run side by side (each
    // on all cores where it can), so one's single-core stretches overlap the other's work.
    let settings = tieOutSettings(config, reports: inputs.storeReports)
    let pairStart = clock.now
    let ((findings, rulesMs), (tieOut, settled, revenue, tieOutMs)) = Parallel.pair(
      { () -> ([Finding], Int64) in
        let findings = namingDisputes(
          inputs.stripeDisputes,
          Reconciler.findings(
            ledger: ledger, entitlements: rows.entitlements, credentials: rows.credentials,
            goodwill: rows.goodwill, credits: rows.credits, notifications: log, options: options))
        return (findings, milliseconds(clock.now - pairStart))
      },
      { () -> (TieOut, SettledProceeds, [RevenueRow], Int64) in
        let (tieOut, settled, revenue) = tieOutAndRevenue(setup, inputs, ledger: ledger, settings: settings)
        return (tieOut, settled, revenue, milliseconds(clock.now - pairStart))
      })
    steps.mark("side by side (rules \(rulesMs), tie-out and revenue \(tieOutMs))")
    let counts = CountsRow.withReportUnits(
      CountsRow.rows(ledger: ledger, entitlements: rows.entitlements, asOf: setup.asOf),
      reports: inputs.storeReports, ledger: ledger, date: setup.date,
      appleDay: latestAppleSalesDay(settings, reports: inputs.storeReports, setup: setup),
      hasPlaySales: !config.playSales.isEmpty)
    steps.mark("counts")
    let reconcileMs = milliseconds(clock.now - reconcileStart)
    let unchecked = Reconciler.uncheckedEntitlements(rows.entitlements, options: options)
    for (store, n) in unchecked.sorted(by: { $0.key < $1.key }) {
      progress.note(
        "warning: \(n) active \(store.rawValue) entitlements not checked: the config names no \(store.rawValue) export"
      )
    }
    progress.note(
      "reconciled \(ledger.chains.count) chains and \(rows.entitlements.count) entitlements as of \(setup.asOf): \(findings.count) findings (\(reconcileMs) ms: \(steps.line))"
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
    var outcome = Outcome(
      ledger: ledger, findings: findings, revenue: revenue, counts: counts, tieOut: tieOut, settled: settled,
      unchecked: unchecked, duplicates: inputs.builder.duplicates, ms: reconcileMs)
    outcome.recognition = recognitionSums(setup, ledger: ledger)
    return outcome
  }

  /// The tie-out beside the reports' look-ups (revenue's proceeds and the readout's settled ones,
  /// built once) and the revenue rows, each building its tables from the reports on one core; then the
  /// revenue rows' proceeds and Stripe's disputes.
  static func tieOutAndRevenue(_ setup: Setup, _ inputs: Inputs, ledger: Ledger, settings: TieOutSettings)
    -> (TieOut, SettledProceeds, [RevenueRow])
  {
    let calendar = setup.calendar
    let (tieOut, (settled, rows)) = Parallel.pair(
      { TieOut.build(ledger: ledger, reports: inputs.storeReports, settings: settings) },
      {
        (
          SettledProceeds(reports: inputs.storeReports, settings: settings),
          Revenue.rows(ledger: ledger, dayOf: { calendar.day(of: $0) }, rounding: setup.config.rounding)
        )
      })
    let revenue = RevenueProceeds.apply(
      rows, ledger: ledger, reports: inputs.storeReports, settings: settings, lookups: settled,
      dayOf: { calendar.day(of: $0) })
    let disputed = RevenueDisputes.apply(
      revenue, feed: inputs.stripeFeed, report: inputs.storeReports.stripeBalance, asOf: ledger.asOf,
      dayOf: { calendar.day(of: $0) })
    return (tieOut, settled, disputed)
  }

  /// The progress meter of reading `input`'s file: a read past two seconds shows its share of the file
  /// and the time left (docs/config.md); `nil` when the file's size cannot be known.
  static func readMeter(_ input: PlannedInput, progress: any ProgressSink) -> ReadProgress? {
    let size = (try? FileManager.default.attributesOfItem(atPath: input.path)[.size] as? NSNumber)?
      .int64Value
    return size.map {
      ReadProgress(
        label: "\(input.role) \(input.display)", totalBytes: $0, sink: progress,
        decodes: ["app.notifications", "app_store.notification_history"].contains(input.role))
    }
  }

  /// How long each step of a phase took, for the progress line.
  struct StepTimes {
    let clock: ContinuousClock
    var last: ContinuousClock.Instant
    var parts: [String] = []

    init(clock: ContinuousClock, start: ContinuousClock.Instant) {
      self.clock = clock
      self.last = start
    }

    /// Ends the step `name` now.
    mutating func mark(_ name: String) {
      let now = clock.now
      parts.append("\(name) \(milliseconds(now - last))")
      last = now
    }

    var line: String { parts.joined(separator: ", ") }
  }

  /// The bytes of a file the run just wrote (for the manifest's size and checksum).
  package static func readBytes(_ path: String) throws(RunError) -> [UInt8] {
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw RunError(.ioError, "cannot read back \(path): \(error.localizedDescription)")
    }
  }

  /// `d` in whole milliseconds.
  package static func milliseconds(_ d: Duration) -> Int64 {
    d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
  }

  /// The files the config's store export patterns match, then the app's CSV files (with `appFiles`)
  /// and the FX table; with `allowMissing`, a pattern or optional file that matches nothing is listed as
  /// missing instead of stopping the run.
  package static func planInputs(
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
      ("app_store.financial_summaries", config.appStoreFinancialSummaries),
      ("play.earnings", config.playEarnings),
      ("app_store.notification_history", config.appStoreNotificationHistory),
      ("stripe.objects", config.stripeObjects), ("stripe.events", config.stripeEvents),
      ("stripe.reports", config.stripeReports),
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
          var input = PlannedInput(role: role, path: m.path, display: m.display)
          input.stripeUserKey = config.stripeUserMetadataKey
          plan.append(input)
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
  package static func summaryFX(_ config: RunConfig, rates: [FXRate], date: CivilDate) -> SummaryFX? {
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
  package static func tieOutSettings(_ config: RunConfig, reports: StoreReportRows) -> TieOutSettings {
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
  package static func latestAppleSalesDay(_ settings: TieOutSettings, reports: StoreReportRows, setup: Setup)
    -> CivilDate?
  {
    let salesDays = Set(reports.appleSales.map(\.day))
    return settings.appleDays.last { span in
      span.end <= setup.asOf && span.day <= setup.date && salesDays.contains(span.day)
    }?.day
  }

  /// One progress line: the tie-out's cells and orders per status.
  package static func tieOutLine(_ tieOut: TieOut) -> String {
    func counts<S: Hashable & Comparable & RawRepresentable<String>>(_ statuses: [S]) -> String {
      var n: [S: Int] = [:]
      for s in statuses { n[s, default: 0] += 1 }
      return n.keys.sorted().map { "\(n[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
    }
    var line = "tie-out: \(tieOut.cells.count) cells (\(counts(tieOut.cells.map(\.status))))"
    if !tieOut.orders.isEmpty {
      line += "; \(tieOut.orders.count) orders (\(counts(tieOut.orders.map(\.status))))"
    }
    return line
  }

  /// The price-experiment readouts of the config's experiments (none without experiments).
  /// What the readout works with: the FX table, fees, catalog, rounding and the settled proceeds;
  /// `nil` without experiments or a reporting currency.
  package static func experimentSettings(_ config: RunConfig, rows: AppRowSet, settled: SettledProceeds)
    -> ExperimentSettings?
  {
    guard !config.experiments.isEmpty, let reporting = config.reportingCurrency else { return nil }
    var settings = ExperimentSettings(
      fx: FXRateBook(reporting: reporting, rows: rows.fxRates), fees: config.fees, catalog: config.catalog,
      rounding: config.rounding)
    if !settled.isEmpty { settings.settled = settled }
    return settings
  }

  package static func computeReadouts(
    _ config: RunConfig, ledger: Ledger, rows: AppRowSet, settled: SettledProceeds, calendar: ReportCalendar
  ) -> [Readout] {
    guard let settings = experimentSettings(config, rows: rows, settled: settled) else { return [] }
    return Readout.build(
      experiments: config.experiments, ledger: ledger, credentials: rows.credentials,
      assignments: rows.assignments, settings: settings, dayOf: { calendar.day(of: $0) })
  }
}
