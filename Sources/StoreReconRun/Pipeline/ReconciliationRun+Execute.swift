import Foundation
package import StoreReconPlatform
import StoreReconCore
import StoreReconIO
import StoreReconAppRows
import StoreReconReports

/// Running the job: the database, the run history, the reports and the manifest around the run.
extension ReconciliationRun {
  /// Runs the job, with the shell's `adapters` (the database, the history stores, the workbooks). Throws
  /// only for what stops a run (bad config, missing input, unwritable output); a malformed input file is
  /// reported in the result and the run goes on.
  package static func execute(_ request: Request, adapters: RunAdapters, progress: any ProgressSink)
    throws(RunError) -> RunResult
  {
    let clock = ContinuousClock()
    let started = clock.now
    // The machine clock, for the run history's metadata only.
    let startedAt = Instant(ms: Int64(Date().timeIntervalSince1970 * 1000)).description
    var request = request
    if case .partition = request.mode { request.history = false }  // the merge keeps the history
    var setup = try setUp(request, progress: progress)
    if let worker = request.worker { try worker.apply(to: &setup) }
    // The decisions first: a file that cannot be read stops the run before anything is read.
    let decisions = try DecisionsFile.read(setup.config.decisions ?? "")
    // The output folder's lock first: a second run into one --out waits for this one or refuses.
    var partial = false
    if case .partition = request.mode { partial = true }
    let publication = try Publication.begin(
      setup.out, timeoutSeconds: request.lockTimeoutSeconds, progress: progress, partial: partial)
    defer { publication.discard() }
    // The database first: an unreachable server, a wrong password, a locked date or a query that does
    // not return its contract stops the run before any file is read.
    // The run history (docs/history.md): on that connection when it lives there, else opened on its own
    // (a SQLite file by default), with the date's lock taken before any file is read.
    let location = request.history ? setup.historyLocation : nil
    var session: (any AppRowDatabaseSession)?
    if let uri = setup.databaseURI {
      session = try openDatabase(
        uri, request: request, setup: &setup, history: location, opener: adapters.database, progress: progress
      )
    }
    var history: (any RunHistory)? = session?.history
    if let location, history == nil {
      history = try adapters.history.open(
        location, lockDate: setup.date, lockTimeoutSeconds: request.lockTimeoutSeconds, progress: progress)
    }
    let database = session?.description
    // The rejects files are written into the temporary folder while the inputs are read.
    setup.staging = try publication.createStaging()
    var (inputs, outcome, asRead, readMs) = try readAndReconcile(
      request, setup: setup, database: session,
      afterRead: { () throws(RunError) in try session?.endSnapshot() }, progress: progress, clock: clock,
      started: started)
    if case .partition(let spec, _, let keymap) = request.mode {
      let result = try writePartial(
        spec, keymap: keymap, setup: setup, inputs: inputs, outcome: outcome, progress: progress,
        worker: request.worker.map { ($0, asRead) }, spill: request.spillCharges)
      try publication.publish()
      return result
    }
    if let store = history {
      try recordHistory(
        store, &outcome, setup: setup, reports: inputs.reports, decisions: decisions, database: database,
        startedAt: startedAt, progress: progress, clock: clock)
    } else {
      outcome.cases = casesWithoutHistory(
        outcome, setup: setup, reports: inputs.reports, decisions: decisions,
        progress: progress)
    }
    var written = try writeReports(
      setup, &inputs, outcome, database: database, workbooks: adapters.workbooks, progress: progress,
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
    history?.unlock(date: setup.date)
    return written.result
  }

  /// Connects to the database (through the shell's `opener`), takes the report date's history lock
  /// (when `history` is this database), checks the contract queries and plans them as the app-row inputs.
  static func openDatabase(
    _ uri: String, request: Request, setup: inout Setup, history: HistoryLocation?,
    opener: any AppRowDatabaseOpener, progress: any ProgressSink
  ) throws(RunError) -> any AppRowDatabaseSession {
    let config = setup.config
    let queries = try opener.contractQueries(
      directory: request.queriesDirectory ?? config.queries,
      optional: Set(
        [config.readsCredits ? .credits : nil, config.readsNotifications ? .notifications : nil].compactMap {
          $0
        }))
    let appFiles = [
      config.entitlements, config.credentials, config.assignments, config.goodwill, config.credits,
      config.notifications,
    ]
    if appFiles.contains(where: { $0 != nil }) {
      progress.note("app rows come from the database; the config's app CSV files are not read")
    }
    let session = try opener.connect(
      uri, queries: queries,
      historyLock: history == .postgres(uri)
        ? HistoryLock(date: setup.date, timeoutSeconds: request.lockTimeoutSeconds) : nil,
      progress: progress)
    for query in queries {
      let name = query.displayName
      var input = PlannedInput(role: query.contract.role, path: name, display: name, query: query)
      if query.contract == .notifications { input.verifier = try config.signatureVerifier() }
      setup.plan.append(input)
    }
    return session
  }

  /// Run history: compares the findings with the previous run's (each finding gets its `since`), gives
  /// every case its state (docs/cases.md), then replaces this date's history in one transaction. A date
  /// earlier than the latest recorded one is a backfill: recorded as such and left out of the trend
  /// (docs/history.md#backfill).
  static func recordHistory(
    _ historyStore: any RunHistory, _ outcome: inout Outcome, setup: Setup, reports: [InputReport],
    decisions: [CaseDecision], database: String?, startedAt: String, progress: any ProgressSink,
    clock: ContinuousClock
  ) throws(RunError) {
    let historyStart = clock.now
    let date = setup.date
    let candidates = caseCandidates(outcome, reports: reports)
    var keys = Set(outcome.findings.map(\.key))
    for c in candidates { keys.insert(c.key) }
    for d in decisions { keys.insert(d.key) }
    let past: (previous: FindingHistory.PreviousRun?, firstSeen: [String: CivilDate])
    let latest: CivilDate?
    do {
      latest = try historyStore.latestRun()
      past = try historyStore.history(before: date, keys: Array(keys))
    } catch {
      throw RunError(kind: error.kind, error.message)
    }
    let backfill = latest.map { date < $0 } ?? false
    // The previous run's findings of rules skipped today are neither open nor resolved: unknown.
    var previous = past.previous
    previous?.findings.removeAll { outcome.skipped.drops(kind: $0.kind, store: $0.store) }
    // The findings' own comparison (since, changes.csv) sees only the previous run's findings.
    let previousFindings = previous.map { run in
      FindingHistory.PreviousRun(
        date: run.date, findings: run.findings.filter { Finding.Kind(rawValue: $0.kind) != nil })
    }
    let compared = FindingHistory.compare(
      current: outcome.findings, date: date, previous: previousFindings, firstSeen: past.firstSeen)
    let book = CaseBook.build(
      candidates: candidates, date: date, previous: previous.map { ($0.date, $0.findings) },
      firstSeen: past.firstSeen, decisions: decisions, historyKept: true)
    try checkDecisionKeys(book, decisions, known: Set(past.firstSeen.keys), setup: setup)
    outcome.findings = compared.findings
    outcome.changes = compared.changes
    outcome.delta = compared.delta
    outcome.cases = book
    let others = candidates.filter { $0.source != .finding }.map { RecordedFinding(case: $0) }
    let record = RunRecord(
      date: date, asOf: setup.asOf,
      optionsJSON: Manifest.options(config: setup.config, database: database).rendered(),
      inputsJSON: JSONText.array(reports.map(Manifest.input)).rendered(),
      findings: compared.recorded + others,
      findingCount: compared.findings.count, delta: compared.delta,
      status: reports.contains { $0.error != nil } ? "inputs_failed" : "complete", startedAt: startedAt,
      backfill: backfill)
    do {
      try historyStore.record(record)
      outcome.historyDays = try historyStore.dayTotals(through: date, days: FindingsTrend.dayCount)
        .filter { Finding.Kind(rawValue: $0.kind) != nil }
    } catch {
      throw RunError(kind: error.kind, error.message)
    }
    outcome.backfill = backfill
    let since = compared.delta.previousDate.map { "since \($0)" } ?? "first recorded run"
    progress.note(
      "history (\(since)): \(compared.delta.newCount) new, \(compared.delta.openCount) still open, "
        + "\(compared.delta.resolvedCount) resolved; cases: \(caseCounts(book)); "
        + "recorded (\(milliseconds(clock.now - historyStart)) ms)")
    if let latest, backfill {
      progress.note(
        "history: \(date) is a backfill (history already has \(latest)): recorded, left out of trends")
    }
  }

  /// Every case of the run: its findings, its tie-out differences and its inputs with rejected rows.
  static func caseCandidates(_ outcome: Outcome, reports: [InputReport]) -> [CaseCandidate] {
    CaseCandidate.all(
      findings: outcome.findings, tieOut: outcome.tieOut, inputs: reports,
      rejectedShareLimitPerMille: RunStatus.rejectedShareLimitPerMille)
  }

  /// The cases of a run without history: every one new (or settled, where a decision holds). A decision
  /// whose key this run does not have cannot be checked without history: a warning, not an error.
  static func casesWithoutHistory(
    _ outcome: Outcome, setup: Setup, reports: [InputReport], decisions: [CaseDecision],
    progress: any ProgressSink
  ) -> CaseBook {
    let book = CaseBook.build(
      candidates: caseCandidates(outcome, reports: reports), date: setup.date, previous: nil, firstSeen: [:],
      decisions: decisions, historyKept: false)
    for d in book.unknownDecisions(decisions, knownKeys: []) {
      progress.note(
        "warning: decisions \(setup.config.decisions ?? "") line \(d.line): no case of this run has key \(d.key) "
          + "(without run history it cannot be checked further)")
    }
    return book
  }

  /// A decision whose key no run has seen is an error naming it (exit 78): a typo must not quietly
  /// settle nothing.
  static func checkDecisionKeys(
    _ book: CaseBook, _ decisions: [CaseDecision], known: Set<String>, setup: Setup
  )
    throws(RunError)
  {
    let unknown = book.unknownDecisions(decisions, knownKeys: known)
    guard let first = unknown.first else { return }
    let more = unknown.count > 1 ? " (and \(unknown.count - 1) more unknown keys)" : ""
    throw RunError(
      .config,
      "decisions \(setup.config.decisions ?? "") line \(first.line): unknown case key '\(first.key)': no run has "
        + "seen it\(more); the keys are in cases.csv")
  }

  /// `3 new, 12 open, 1 settled, 4 resolved` (states present).
  static func caseCounts(_ book: CaseBook) -> String {
    let parts = Case.State.allCases.compactMap { state -> String? in
      let n = book.count(state)
      return n == 0 ? nil : "\(n) \(state.rawValue)"
    }
    return parts.isEmpty ? "none" : parts.joined(separator: ", ")
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
    workbooks: any WorkbookRenderer, progress: any ProgressSink, clock: ContinuousClock
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
      reportingTotals: ReportingTotals.build(facts), workbooks: workbooks, clock: clock)
    let experimentStart = clock.now
    let readouts =
      outcome.skipped.dropsReadouts
      ? []
      : outcome.readouts
        ?? computeReadouts(
          setup.config, ledger: outcome.ledger, rows: inputs.rows, settled: outcome.settled,
          calendar: setup.calendar)
    let experimentMs = milliseconds(clock.now - experimentStart)
    // charges.csv from the ledger, before it is freed (docs/reports.md#chargescsv).
    let chargeFiles = try writeChargeFiles(setup, outcome)
    outcome.ledger.release()  // nothing below reads the ledger: free it before the reports are rendered
    for readout in readouts {
      progress.note(ExperimentSummary.progressLine(readout) + " (\(experimentMs) ms)")
      if !readout.fxGaps.isEmpty { progress.note("warning: " + ExperimentSummary.gapLine(readout)) }
    }
    // notifications.csv needs the notification log, which goes with the app's rows below.
    let notificationsFile = inputs.rows.notifications.map { _ in
      ReportTables.notificationsCSV(
        outcome.findings,
        fields: outcome.notificationFields
          ?? notificationFields(outcome.findings, rows: inputs.rows, asOf: setup.asOf))
    }
    inputs.rows = AppRowSet()  // likewise the app's rows
    var streamed = try finishRejects(inputs.rejectFiles)
    var (files, summary) = reportFiles(
      setup, outcome, grants: grants, readouts: readouts, facts: facts, status: status,
      notifications: notificationsFile)
    for (name, bytes) in files {
      do {
        try DurableFile.write(bytes, to: setup.staging + "/" + name)
      } catch {
        throw RunError(.ioError, error.description)
      }
    }
    streamed += chargeFiles
    let workbookMs = try finishWorkbooks(
      workbook, readouts: readouts, setup: setup, workbooks: workbooks, files: &files, progress: progress,
      clock: clock)
    // Writing, without the experiments' readout that ran meanwhile (timed on its own).
    let writeMs = milliseconds(clock.now - writeStart) - experimentMs
    var result = RunResult(
      date: setup.date, asOf: setup.asOf, outDirectory: setup.out, inputs: inputs.reports,
      findings: outcome.findings, revenue: outcome.revenue, counts: outcome.counts,
      files: files.map(\.0) + streamed.map(\.name) + ["manifest.json"])
    (result.experiments, result.history, result.summary) = (readouts, outcome.delta, summary)
    result.backfill = outcome.backfill
    result.cases = outcome.cases
    result.uncheckedEntitlements = outcome.unchecked
    result.skippedRules = outcome.skipped
    result.tieOut = outcome.tieOut
    result.payouts = facts.payoutLines
    result.repeatedFiles = setup.repeats.map { "\($0.repeated) (read as \($0.readAs))" }
    return Written(
      result: result, files: files, streamed: streamed, experimentMs: experimentMs, writeMs: writeMs,
      workbookMs: workbookMs)
  }

  /// The reconciliation workbook being written on its own thread.
  struct WorkbookWriting {
    let work: BackgroundWork<RunError>
    let path: String
    let time: WorkbookTime
  }

  /// Starts writing the reconciliation workbook (the larger part of the writing: one core for ~1.4 s at
  /// 1.5M users) on another core.
  static func startWorkbook(
    _ setup: Setup, _ inputs: Inputs, _ outcome: Outcome, grants: [GrantRow], status: RunStatus,
    trend: RevenueTrend?, findingsTrend: FindingsTrend?, reportingTotals: ReportingTotals?,
    workbooks: any WorkbookRenderer, clock: ContinuousClock
  ) throws(RunError) -> WorkbookWriting {
    let workbookStart = clock.now
    var workbook = WorkbookContent(
      date: setup.date, asOf: setup.asOf, timeZone: setup.config.timeZone, inputs: inputs.reports,
      findings: outcome.findings, revenue: outcome.revenue, counts: outcome.counts, grants: grants,
      rejects: shownRejects(inputs.rejectFiles),
      history: outcome.changes.map {
        WorkbookHistory(previousDate: outcome.delta?.previousDate, changes: $0)
      },
      tieOut: outcome.tieOut, payouts: PayoutTotal.payoutTotals(inputs.storeReports), status: status
    )
    workbook.recognition = recognitionRows(setup, outcome)
    workbook.waterfall = outcome.recognition.waterfall
    workbook.payoutLines = payoutLines(setup, inputs)
    workbook.revenueTrend = trend
    workbook.findingsTrend = findingsTrend
    workbook.reportingTotals = reportingTotals
    workbook.docsBase = setup.config.docsBaseURL
    let path = setup.staging + "/" + ReportFiles.reconciliationWorkbook
    let time = WorkbookTime()
    let work = BackgroundWork { () throws(RunError) in
      try workbooks.writeReconciliation(workbook, to: path)
      time.ms = milliseconds(clock.now - workbookStart)
    }
    return WorkbookWriting(work: work, path: path, time: time)
  }

  /// charges.csv and revenue_recognition_import.csv, written in pieces as they are rendered: they hold
  /// every charge of the history (546 MB and 225 MB at 300,000 realistic users), so neither is ever whole
  /// in memory, nor are their lines: a run renders them from its ledger a block of chains at a time, a
  /// run in passes merges its passes' spill files. Returns their names, sizes and checksums for the
  /// manifest.
  static func writeChargeFiles(_ setup: Setup, _ outcome: Outcome) throws(RunError) -> [(
    name: String, bytes: Int64, sha256: String
  )] {
    do {
      let charges = try DurableFile.Stream(path: setup.staging + "/" + ChargeTables.fileName)
      let imports = try DurableFile.Stream(path: setup.staging + "/" + ChargeTables.importFileName)
      let dayOf = { (at: Instant) in setup.calendar.day(of: at) }
      if !outcome.chargeSpills.isEmpty {
        try ChargeSpill.merge(
          outcome.chargeSpills, dayOf: dayOf, charges: { try charges.append($0) },
          imports: { try imports.append($0) })
      } else if let lines = outcome.charges {
        try ChargeTables.csv(lines, dayOf: dayOf) { (piece: [UInt8]) throws(DurableFile.WriteError) in
          try charges.append(piece)
        }
        try ChargeTables.importCSV(lines) { (piece: [UInt8]) throws(DurableFile.WriteError) in
          try imports.append(piece)
        }
      } else {
        try ChargeTables.write(
          ledger: outcome.ledger, settled: outcome.settled, dayOf: dayOf,
          charges: { (piece: [UInt8]) throws(DurableFile.WriteError) in try charges.append(piece) },
          imports: { (piece: [UInt8]) throws(DurableFile.WriteError) in try imports.append(piece) })
      }
      let written = try charges.finish()
      let imported = try imports.finish()
      return [
        (ChargeTables.fileName, written.bytes, written.sha256),
        (ChargeTables.importFileName, imported.bytes, imported.sha256),
      ]
    } catch {
      throw RunError(.ioError, "\(error)")
    }
  }

  /// The report files written whole, from Reports' list (``ReportFiles/render(_:facts:status:)``), and
  /// the summary.
  static func reportFiles(
    _ setup: Setup, _ outcome: Outcome, grants: [GrantRow], readouts: [Readout], facts: SummaryFacts,
    status: RunStatus, notifications: [UInt8]?
  ) -> ([(String, [UInt8])], ReportSummary) {
    let tables = ReportFiles.Tables(
      findings: outcome.findings, revenue: outcome.revenue, recognition: recognitionRows(setup, outcome),
      counts: outcome.counts, grants: grants, tieOut: outcome.tieOut, duplicates: outcome.duplicates,
      readouts: setup.config.experiments.isEmpty ? nil : readouts, changes: outcome.changes,
      cases: outcome.cases, notifications: notifications, docsBase: setup.config.docsBaseURL)
    return ReportFiles.render(tables, facts: facts, status: status)
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
        date: setup.date, calendar: setup.calendar, inputs: inputs.reports, missing: setup.missing,
        notChecked: outcome.skipped.names),
      history: outcome.changes.map {
        var history = SummaryHistory(
          changes: $0, previousRunDate: outcome.delta?.previousDate, dayTotals: outcome.historyDays)
        history.backfill = outcome.backfill
        return history
      },
      fx: fx, tieOut: outcome.tieOut, payouts: PayoutTotal.payoutTotals(inputs.storeReports),
      counts: outcome.counts)
    facts.attention = inputs.attention
    facts.cases = outcome.cases
    facts.inputNotes = [duplicatesLine(outcome.duplicates)]
    facts.docsBase = config.docsBaseURL
    facts.deferredAtT = RecognitionRow.deferredAtT(
      recognitionRows(setup, outcome), last: ReportMonth(setup.date)
    )
    .map { Money(minor: $0.1, currency: $0.0) }
    facts.payoutLines = payoutLines(setup, inputs)
    return facts
  }

  /// payouts.csv's lines: the settlement reports' payouts, with the FX table's rates (converting
  /// into the reporting currency, half-even) beside the stores' own.
  static func payoutLines(_ setup: Setup, _ inputs: Inputs) -> [PayoutLine] {
    let fx = setup.config.reportingCurrency.map { FXRateBook(reporting: $0, rows: inputs.rows.fxRates) }
    return Payouts.lines(inputs.storeReports, fx: fx)
  }

  /// Waits for the reconciliation workbook, then writes the price-tests workbook (with experiments);
  /// adds both to `files` and returns the milliseconds they took.
  static func finishWorkbooks(
    _ workbook: WorkbookWriting, readouts: [Readout], setup: Setup, workbooks: any WorkbookRenderer,
    files: inout [(String, [UInt8])], progress: any ProgressSink, clock: ContinuousClock
  ) throws(RunError) -> Int64 {
    try workbook.work.wait()
    files.append((ReportFiles.reconciliationWorkbook, try readBytes(workbook.path)))
    let workbookBytes = files.last?.1.count ?? 0
    progress.note(
      "wrote \(ReportFiles.reconciliationWorkbook): \(workbookBytes) bytes (\(workbook.time.ms) ms)")
    var priceMs: Int64 = 0
    if !readouts.isEmpty {
      let priceStart = clock.now
      let pricePath = setup.staging + "/" + ReportFiles.priceTestsWorkbook
      try workbooks.writePriceTests(readouts, date: setup.date, to: pricePath)
      files.append((ReportFiles.priceTestsWorkbook, try readBytes(pricePath)))
      let priceBytes = files.last?.1.count ?? 0
      priceMs = milliseconds(clock.now - priceStart)
      progress.note("wrote \(ReportFiles.priceTestsWorkbook): \(priceBytes) bytes (\(priceMs) ms)")
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
      try DurableFile.write(manifest, to: setup.staging + "/manifest.json")
    } catch {
      throw RunError(.ioError, error.description)
    }
    written.result.files.sort()
  }
}

/// How long the reconciliation workbook took on its own thread (set there before the owner's `wait`
/// returns, read only after it).
final class WorkbookTime: @unchecked Sendable {
  /// The milliseconds it took.
  var ms: Int64 = 0
}

extension ReconciliationRun {
  /// `storerecon keymap`: reads every input once and writes the lineage keymap to `path`; returns the
  /// progress line (nodes, entries, bytes).
  package static func writeKeymap(
    _ request: Request, to path: String, adapters: RunAdapters, progress: any ProgressSink
  ) throws(RunError) -> String {
    var setup = try setUp(request, progress: progress)
    let scratch = NSTemporaryDirectory() + "storerecon-keymap-\(ProcessInfo.processInfo.processIdentifier)"
    do {
      try FileManager.default.createDirectory(atPath: scratch + "/rejects", withIntermediateDirectories: true)
    } catch {
      throw RunError(.ioError, "cannot create \(scratch): \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // The app's rows from the database where the run reads them there (no run history is touched).
    var session: (any AppRowDatabaseSession)?
    if let uri = setup.databaseURI {
      var readOnly = request
      readOnly.history = false
      session = try openDatabase(
        uri, request: readOnly, setup: &setup, history: nil, opener: adapters.database, progress: progress)
    }
    let rules = RejectRules(folder: scratch, damaged: setup.config.damaged, allowDamaged: true)
    var graph = try keymapGraph(setup.plan, database: session, rules: rules, progress: progress)
    try session?.endSnapshot()
    let keymap = graph.keymap()
    let bytes = keymap.rendered()
    do {
      try DurableFile.write(bytes, to: path)
    } catch {
      throw RunError(.ioError, error.description)
    }
    return "wrote \(path): \(graph.nodeCount) nodes, \(keymap.entries.count) entries, \(bytes.count) bytes"
  }

  /// The lineage graph of `plan`'s inputs, read one at a time (Stripe's inputs together, as their
  /// chains span files): each input's records and rows are joined into the graph and freed before the
  /// next is read, so the keymap pass holds the graph and one input, never the whole read.
  static func keymapGraph(
    _ plan: [PlannedInput], database: (any AppRowDatabase)?, rules: RejectRules, progress: any ProgressSink
  ) throws(RunError) -> LineageGraph {
    var graph = LineageGraph()
    let stripe = plan.filter { $0.role.hasPrefix("stripe.") }
    var groups = plan.filter { !$0.role.hasPrefix("stripe.") }.map { [$0] }
    if !stripe.isEmpty { groups.append(stripe) }
    for group in groups {
      let inputs = try readInputs(
        group, database: database, rejects: rules, progress: progress, clock: ContinuousClock())
      inputs.builder.joinLineages(into: &graph)
      inputs.rows.joinLineages(into: &graph)
      // A Stripe notification may name its chain by an invoice, payment intent or charge id.
      for (alias, key) in inputs.stripeAliases.sorted(by: { $0.key < $1.key }) {
        graph.join(LineageNode.chain(.stripe, alias), LineageNode.chain(.stripe, key))
      }
    }
    FreeMemory.release()
    return graph
  }
}
