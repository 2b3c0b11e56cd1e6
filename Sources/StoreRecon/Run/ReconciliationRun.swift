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
    /// `--allow-missing`: a configured store export or optional app file that matches no file is reported
    /// as INCOMPLETE in the summary instead of stopping the run with exit 66 (`app.entitlements` is
    /// always required).
    public var allowMissing: Bool

    /// Creates a request.
    public init(configPath: String, date: CivilDate? = nil, outDirectory: String? = nil, allowMissing: Bool = false) {
      self.configPath = configPath
      self.date = date
      self.outDirectory = outDirectory
      self.allowMissing = allowMissing
    }
  }

  struct PlannedInput {
    var role: String
    var path: String
    var display: String
  }

  /// Runs the job. Throws only for what stops a run (bad config, missing input, unwritable output);
  /// a malformed input file is reported in the result and the run goes on.
  public static func execute(_ request: Request, progress: any ProgressSink) throws(RunError) -> RunResult {
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
    let (plan, missing) = try planInputs(config, configPath: request.configPath, allowMissing: request.allowMissing)
    for m in missing { progress.note("warning: no file matches \(m.role) '\(m.pattern)' — reported as INCOMPLETE (--allow-missing)") }

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

    let writeStart = clock.now
    var files: [(String, [UInt8])] = [
      ("findings.csv", ReportTables.findingsCSV(findings)),
      ("revenue.csv", ReportTables.revenueCSV(revenue)),
      ("counts.csv", ReportTables.countsCSV(counts)),
      ("grants.csv", ReportTables.grantsCSV(goodwill: rows.goodwill, entitlements: rows.entitlements, asOf: asOf)),
    ]
    for (name, rejects) in rejectFiles { files.append((name, ReportTables.rejectsCSV(rejects))) }
    // Run history, price-test verdicts and an FX table plug in here as plain values when configured.
    let facts = SummaryFacts(
      version: StoreReconVersion.version, date: date, asOf: asOf, timeZone: config.timeZone, inputs: reports,
      findings: findings, revenue: revenue, alerts: config.alerts,
      incomplete: Completeness.reasons(date: date, calendar: calendar, inputs: reports, missing: missing),
      history: nil, experiments: nil, fx: nil)
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
    let writeMs = milliseconds(clock.now - writeStart)
    var result = RunResult(
      date: date, asOf: asOf, outDirectory: out, inputs: reports, findings: findings, revenue: revenue, counts: counts,
      files: files.map(\.0) + ["manifest.json"], summary: summary)
    let manifest = Manifest.render(
      result: result, config: config, configPath: request.configPath, outputs: files,
      timings: [("read", readMs), ("reconcile", reconcileMs), ("write", writeMs), ("total", milliseconds(clock.now - started))])
    do {
      try AtomicFile.write(manifest, to: out + "/manifest.json")
    } catch {
      throw RunError(.ioError, error.description)
    }
    result.files.sort()
    progress.note("wrote \(files.count + 1) files to \(out) (\(writeMs) ms)")
    return result
  }

  static func milliseconds(_ d: Duration) -> Int64 {
    d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
  }

  static func planInputs(_ config: RunConfig, configPath: String, allowMissing: Bool = false) throws(RunError) -> (
    [PlannedInput], [Completeness.Missing]
  ) {
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
          throw RunError(.missingInput, "no file matches \(role) '\(pattern)' (relative to \(config.baseDirectory))")
        }
        for m in matches { plan.append(PlannedInput(role: role, path: m.path, display: m.display)) }
      }
    }
    let app: [(String, String?)] = [
      ("app.entitlements", config.entitlements), ("app.credentials", config.credentials),
      ("app.assignments", config.assignments), ("app.goodwill", config.goodwill),
    ]
    for (role, path) in app {
      guard let path else { continue }
      let resolved = config.resolve(path)
      guard FileManager.default.fileExists(atPath: resolved) else {
        if allowMissing && role != "app.entitlements" {
          missing.append(Completeness.Missing(role: role, pattern: path))
          continue
        }
        throw RunError(.missingInput, "\(role) file \(resolved) does not exist")
      }
      plan.append(PlannedInput(role: role, path: resolved, display: path))
    }
    return (plan, missing)
  }
}

/// The app's own rows, as read for one run.
struct AppRowSet {
  var entitlements: [Entitlement] = []
  var credentials: [Credential] = []
  var assignments: [Assignment] = []
  var goodwill: [GoodwillGrant] = []
}
