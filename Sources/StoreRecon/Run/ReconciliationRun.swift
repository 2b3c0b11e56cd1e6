import Foundation

/// One reconciliation run: read the config's inputs, build the ledger, apply the rules, write the reports.
public enum ReconciliationRun {
  /// What the user asked for on the command line.
  public struct Request: Sendable {
    /// Path of the JSON config.
    public var configPath: String
    /// Report date; `nil` means yesterday in the config's time zone.
    public var date: CivilDate?
    /// Output folder; `nil` means `reports/<date>`.
    public var outDirectory: String?

    /// Creates a request.
    public init(configPath: String, date: CivilDate? = nil, outDirectory: String? = nil) {
      self.configPath = configPath
      self.date = date
      self.outDirectory = outDirectory
    }
  }

  struct PlannedInput {
    var role: String
    var path: String
    var display: String
    /// The reporting currency, for the FX table.
    var reporting: Currency?
  }

  /// Runs the job. Throws only for what stops a run (bad config, missing input, unwritable output);
  /// a malformed input file is reported in the result and the run goes on.
  public static func execute(
    _ request: Request, progress: any ProgressSink, workbookOptions: ReconciliationWorkbook.Options = .init()
  ) throws(RunError) -> RunResult {
    let clock = ContinuousClock()
    let started = clock.now
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
    let plan = try planInputs(config, configPath: request.configPath)

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
      if let digest = FileDigest.of(path: input.path) {
        report.bytes = digest.bytes
        report.sha256 = digest.sha256
      }
      let rejects = RejectList()
      do {
        report.counts = try InputReaders.read(
          input, fileIndex: Int32(index), rejects: rejects, ledger: builder, rows: &rows, report: &report)
      } catch {
        report.error = error.description
        progress.note("ERROR \(error.description) — the run goes on without this file")
      }
      report.elapsedMs = milliseconds(clock.now - readStart)
      rejectFiles.append((name, rejects.rejects))
      reports.append(report)
      let c = report.counts
      progress.note(
        "read \(input.role) \(input.display): \(c.read) rows, \(c.accepted) accepted, \(c.rejected) rejected (\(report.elapsedMs) ms)")
    }
    let readMs = milliseconds(clock.now - started)

    let reconcileStart = clock.now
    let ledger = builder.build(asOf: asOf, catalog: config.catalog)
    var options = ReconcileOptions(asOf: asOf)
    options.graceDays = config.graceDays
    options.toleranceMs = config.toleranceHours * 3_600_000
    let findings = Reconciler.findings(
      ledger: ledger, entitlements: rows.entitlements, credentials: rows.credentials, goodwill: rows.goodwill,
      options: options)
    let revenue = Revenue.rows(ledger: ledger, dayOf: { calendar.day(of: $0) }, rounding: config.rounding)
    let counts = CountsRow.rows(ledger: ledger, entitlements: rows.entitlements, asOf: asOf)
    let reconcileMs = milliseconds(clock.now - reconcileStart)
    progress.note("reconciled \(ledger.chains.count) chains and \(rows.entitlements.count) entitlements as of \(asOf): \(findings.count) findings (\(reconcileMs) ms)")
    let experimentStart = clock.now
    let readouts = readExperiments(config, ledger: ledger, rows: rows, calendar: calendar)
    let experimentMs = milliseconds(clock.now - experimentStart)
    for readout in readouts {
      progress.note(ExperimentSummary.progressLine(readout) + " (\(experimentMs) ms)")
      if !readout.fxGaps.isEmpty { progress.note("warning: " + ExperimentSummary.gapLine(readout)) }
    }

    let writeStart = clock.now
    let grants = GrantRow.rows(goodwill: rows.goodwill, entitlements: rows.entitlements, asOf: asOf)
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
    for (name, rejects) in rejectFiles { files.append((name, ReportTables.rejectsCSV(rejects))) }
    for (name, bytes) in files {
      do {
        try AtomicFile.write(bytes, to: out + "/" + name)
      } catch {
        throw RunError(.ioError, error.description)
      }
    }
    let workbookStart = clock.now
    let workbook = ReconciliationWorkbook.Content(
      date: date, asOf: asOf, timeZone: config.timeZone, inputs: reports, findings: findings,
      revenue: revenue, counts: counts, grants: grants, rejects: rejectFiles.flatMap(\.1))
    let workbookPath = out + "/" + ReconciliationWorkbook.fileName
    do {
      try ReconciliationWorkbook.write(workbook, to: workbookPath, options: workbookOptions)
    } catch {
      throw RunError(.ioError, error.description)
    }
    files.append((ReconciliationWorkbook.fileName, try readBytes(workbookPath)))
    let workbookBytes = files.last?.1.count ?? 0
    let reconciliationMs = milliseconds(clock.now - workbookStart)
    progress.note("wrote \(ReconciliationWorkbook.fileName): \(workbookBytes) bytes (\(reconciliationMs) ms)")
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
      let priceMs = milliseconds(clock.now - priceStart)
      progress.note("wrote \(PriceTestsWorkbook.fileName): \(priceBytes) bytes (\(priceMs) ms)")
    }
    let workbookMs = milliseconds(clock.now - workbookStart)
    let writeMs = milliseconds(clock.now - writeStart)
    var result = RunResult(
      date: date, asOf: asOf, outDirectory: out, inputs: reports, findings: findings, revenue: revenue, counts: counts,
      files: files.map(\.0) + ["manifest.json"], experiments: readouts)
    let manifest = Manifest.render(
      result: result, config: config, configPath: request.configPath, outputs: files,
      timings: [
        ("read", readMs), ("reconcile", reconcileMs), ("experiments", experimentMs), ("write", writeMs),
        ("workbook", workbookMs),
        ("total", milliseconds(clock.now - started)),
      ])
    do {
      try AtomicFile.write(manifest, to: out + "/manifest.json")
    } catch {
      throw RunError(.ioError, error.description)
    }
    result.files.sort()
    progress.note("wrote \(files.count + 1) files to \(out) (\(writeMs) ms)")
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

  static func planInputs(_ config: RunConfig, configPath: String) throws(RunError) -> [PlannedInput] {
    var plan: [PlannedInput] = []
    let groups: [(String, [String])] = [
      ("app_store.transactions", config.appStoreTransactions), ("play.sales", config.playSales),
      ("play.subscriptions", config.playSubscriptions), ("play.voided", config.playVoided),
    ]
    for (role, patterns) in groups {
      for pattern in patterns {
        let matches = Glob.expand(pattern, base: config.baseDirectory)
        guard !matches.isEmpty else {
          throw RunError(.missingInput, "no file matches \(role) '\(pattern)' (relative to \(config.baseDirectory))")
        }
        for m in matches { plan.append(PlannedInput(role: role, path: m.path, display: m.display)) }
      }
    }
    let app: [(String, String?)] = [
      ("app.entitlements", config.entitlements), ("app.credentials", config.credentials),
      ("app.assignments", config.assignments), ("app.goodwill", config.goodwill),
      ("fx.rates", config.fxRates),
    ]
    for (role, path) in app {
      guard let path else { continue }
      let resolved = config.resolve(path)
      guard FileManager.default.fileExists(atPath: resolved) else {
        throw RunError(.missingInput, "\(role) file \(resolved) does not exist")
      }
      plan.append(
        PlannedInput(role: role, path: resolved, display: path, reporting: config.reportingCurrency))
    }
    return plan
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

/// The app's own rows, as read for one run.
struct AppRowSet {
  var entitlements: [Entitlement] = []
  var credentials: [Credential] = []
  var assignments: [Assignment] = []
  var goodwill: [GoodwillGrant] = []
  var fxRates: [FXRate] = []
}
