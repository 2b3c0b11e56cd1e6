import Foundation
package import StoreReconCore
package import StoreReconAppRows
package import StoreReconPlatform

/// What `storerecon worker run` changes in a partition's run: the engine-keyed inputs are read from
/// the files the worker spooled their lines into (each line at its own line number), and the partial
/// carries their counts and rejects (docs/partitions.md#the-worker-protocol).
package struct WorkerSetup: Sendable {
  /// Plan index → the spooled file read in its place (under the input's own name).
  package var paths: [Int: String]
  /// The plan's inputs digest the engine passed on (the worker has only a share of each input).
  package var inputsDigest: String
  /// The engine-keyed inputs.
  package var keyed: Set<Int>

  /// A worker reading `paths` in place of the plan's files.
  package init(paths: [Int: String], inputsDigest: String, keyed: Set<Int>) {
    self.paths = paths
    self.inputsDigest = inputsDigest
    self.keyed = keyed
  }

  package func apply(to setup: inout ReconciliationRun.Setup) throws(RunError) {
    guard setup.databaseURI == nil else {
      throw RunError(
        .usage,
        "worker: the config reads the app's rows from PostgreSQL; a worker reads files only "
          + "(export the rows to the config's CSV files, or run the partitions with run --partition)")
    }
    for (index, path) in paths {
      guard setup.plan.indices.contains(index) else {
        throw RunError(.dataError, "worker: input \(index) is not in the config's plan")
      }
      setup.plan[index].path = path
    }
  }
}

extension ReconciliationRun {
  /// The roles the engine keys line by line; every other input is read whole by every worker.
  package static let engineKeyedRoles: Set<String> = [
    "app_store.transactions", "play.subscriptions", "play.voided", "app.entitlements", "app.credentials",
    "app.notifications", "app_store.notification_history",
  ]

  /// Notifications of engine-keyed inputs that a worker's filter dropped (counted as they are decoded).
  package final class Refusals: @unchecked Sendable {
    private let lock = Lock()
    private var count = 0
    package func add() { lock.locked { count += 1 } }
    var total: Int { lock.locked { count } }
  }

  /// Drops the notifications of other lineages as they are decoded; `counting` (a worker's keyed
  /// notification inputs, which hold only its lineages): each one dropped is counted.
  package static func keepNotifications(_ filter: LineageFilter?, in rows: inout AppRowSet, counting: Bool)
    -> Refusals
  {
    let refusals = Refusals()
    if let filter {
      rows.keepsNotification = { decoded in
        let kept = filter.keeps(decoded.notification)
        if !kept && counting { refusals.add() }
        return kept
      }
    }
    return refusals
  }

  /// Keeps the rows of `filter`'s lineages; a row of an engine-keyed input that the filter drops is an
  /// error (the engine sent it to the wrong partition, and nothing may be lost silently).
  package static func keepLineages(
    _ filter: LineageFilter, _ inputs: inout Inputs, plan: [PlannedInput], strict: Set<Int>,
    notifications: Int
  ) throws(RunError) {
    let roles = Set(strict.map { plan[$0].role })
    let before = (inputs.rows.entitlements.count, inputs.rows.credentials.count)
    inputs.rows.keepLineages(filter)
    let records = inputs.builder.strictRefusals
    let entitlements = roles.contains("app.entitlements") ? before.0 - inputs.rows.entitlements.count : 0
    let credentials = roles.contains("app.credentials") ? before.1 - inputs.rows.credentials.count : 0
    guard records + entitlements + credentials + notifications == 0 else {
      throw RunError(
        .dataError,
        "worker: rows of the engine-keyed inputs belong to other partitions (\(records) store records, "
          + "\(entitlements) entitlements, \(credentials) credentials, \(notifications) notifications) — "
          + "the engine keyed their lines differently from the keymap (tag them with storerecon worker tag)")
    }
  }

  /// A merge's report of an engine-keyed input: the workers' shares added up, their rejects written
  /// to its rejects file in line order. The file itself is only checksummed.
  package static func taken(
    _ share: EngineInput, input: PlannedInput, rejects: RejectFileSink, progress: any ProgressSink
  )
    -> InputReport
  {
    var report = InputReport(role: input.role, path: input.display, rejectsFile: rejects.name)
    report.take(share)
    for r in share.rejects { rejects.reject(r) }
    let c = share.counts
    progress.note(
      "took \(input.role) \(input.display) from the workers: \(c.read) rows, \(c.accepted) accepted, "
        + "\(c.rejected) rejected")
    return report
  }

  /// A worker's shares of its engine-keyed inputs, as read (before duplicates are taken off).
  package static func engineShares(_ keyed: Set<Int>, reports: [InputReport], sinks: [RejectFileSink])
    -> [Int:
    EngineInput]
  {
    var out: [Int: EngineInput] = [:]
    for index in keyed where reports.indices.contains(index) {
      var e = reports[index].engineShare
      e.rejects = sinks.indices.contains(index) ? sinks[index].all : []
      out[index] = e
    }
    return out
  }
}

extension ReconciliationRun {
  /// What every kind of run shares: the inputs read (`afterRead` then ends a database snapshot), the
  /// rules applied, a merge's partials taken in, duplicates listed and taken off the inputs' counts
  /// (`asRead`: the reports before that).
  package static func readAndReconcile(
    _ request: Request, setup: Setup, database: (any AppRowDatabase)?, afterRead: () throws(RunError) -> Void,
    progress: any ProgressSink, clock: ContinuousClock, started: ContinuousClock.Instant
  ) throws(RunError) -> (inputs: Inputs, outcome: Outcome, asRead: [InputReport], readMs: Int64) {
    // A worker judges no input damaged: it reads a share of it, and the merge judges the whole.
    var inputs = try readInputs(
      setup.plan, database: database,
      rejects: RejectRules(
        folder: setup.staging, damaged: setup.config.damaged,
        allowDamaged: request.allowDamaged || request.worker != nil, keepsAll: request.worker != nil),
      progress: progress, clock: clock, filter: request.mode.filter, engine: request.mode.engineInputs,
      strict: request.worker?.keyed ?? [], whileReading: whileReading(request))
    if let record = setup.verifiedRecord {
      let written = setup.plan.contains {
        if case .parsed = $0.snapshotOutcome?.outcome { return true }
        return false
      }
      saveVerifiedRecord(record, snapshotsWritten: written, progress: progress)
    }
    noteSnapshots(setup.plan, progress: progress)
    // The contract queries' read-only snapshot ends here; the run history writes after it.
    try afterRead()
    try readStoreReportsOnce(&inputs, progress: progress)
    try readStripeBalanceOnce(&inputs, progress: progress)
    let readMs = milliseconds(clock.now - started)
    // A webhook redelivered is one notification (docs/notifications.md#redeliveries).
    var repeats: [NotificationRepeats.Repeat] = []
    if let log = inputs.rows.notifications {
      (inputs.rows.notifications, repeats) = NotificationRepeats.deduplicated(log)
    }
    var outcome = reconcile(setup, inputs, progress: progress, clock: clock)
    try checkMoneySums(outcome, reports: inputs.storeReports)
    if case .merge(let merged) = request.mode {
      try checkPartials(merged, setup: setup, reports: inputs.reports)
      outcome = try mergedOutcome(outcome, merged, setup: setup, inputs: inputs)
      progress.note(
        "merged the partials: \(outcome.findings.count) findings, \(outcome.revenue.count) revenue rows")
    }
    // An input that failed as a whole: the rules that need it are left out (no false findings).
    outcome.skipped = SkippedRules(
      config: setup.config, failures: SkippedRules.failures(reports: inputs.reports, missing: setup.missing))
    let dropped = outcome.skipped.apply(to: &outcome)
    for skip in outcome.skipped.skips { progress.note("warning: \(skip.sentence)") }
    if !outcome.skipped.isEmpty {
      progress.note("warning: \(dropped) findings of the rules not checked left out (their inputs failed)")
    }
    outcome.duplicates = listed(outcome.duplicates, reports: inputs.reports)
    // Before `asRead`: a worker's share of an engine-keyed input carries its app-row repeats (the merge
    // does not read those rows again), but not its store records read twice (the merge lists those).
    applyAppRowRepeats(inputs.rows.idRepeats, to: &inputs, progress: progress)
    let asRead = inputs.reports
    applyDuplicates(outcome.duplicates, to: &inputs, progress: progress)
    applyNotificationRepeats(repeats, to: &inputs, progress: progress)
    return (inputs, outcome, asRead, readMs)
  }

  /// What a run in passes leaves out while reading: a pass every other lineage's app rows, the merge
  /// the rows without ids (``WhileReading``); `nil` for any other run.
  static func whileReading(_ request: Request) -> WhileReading? {
    guard request.filtersWhileReading, request.worker == nil else { return nil }
    if case .merge = request.mode { return .rowsWithoutIds }
    return .everyRow
  }

  /// `storerecon worker run`'s partition: no database, no history, no reports; writes the partial
  /// into `request.outDirectory`.
  package static func executeWorker(_ request: Request, progress: any ProgressSink) throws(RunError)
    -> RunResult
  {
    guard case .partition(let spec, _, let keymap) = request.mode, let worker = request.worker else {
      throw RunError(.software, "a worker runs one partition")
    }
    let clock = ContinuousClock()
    var setup = try setUp(request, progress: progress)
    try worker.apply(to: &setup)
    let publication = try Publication.begin(
      setup.out, timeoutSeconds: request.lockTimeoutSeconds, progress: progress, partial: true)
    defer { publication.discard() }
    setup.staging = try publication.createStaging()
    let (inputs, outcome, asRead, _) = try readAndReconcile(
      request, setup: setup, database: nil, afterRead: {}, progress: progress, clock: clock,
      started: clock.now)
    let result = try writePartial(
      spec, keymap: keymap, setup: setup, inputs: inputs, outcome: outcome, progress: progress,
      worker: (worker, asRead))
    try publication.publish()
    return result
  }
}
