import Foundation
package import StoreReconCore
package import StoreReconAppRows
package import StoreReconPlatform
package import StoreReconReports

/// Which lineages a run keeps: a partition's (docs/partitions.md), or none (a merge reads the inputs
/// for their counts, rejects and the stores' own reports, and takes everything else from the partials).
package struct LineageFilter: Sendable {
  package let chain: @Sendable (RecordBatch.Space, String) -> Bool
  package let user: @Sendable (String) -> Bool
  package let noKey: Bool

  /// Partition `spec`'s lineages, as `keymap` joins them.
  package static func partition(_ spec: PartitionSpec, keymap: LineageKeymap) -> LineageFilter {
    LineageFilter(
      chain: { keymap.owns(LineageNode.chain($0, $1), in: spec) },
      user: { keymap.owns(LineageNode.user($0), in: spec) },
      noKey: spec.owns(lineage: ""))
  }

  /// No lineage at all.
  package static let nothing = LineageFilter(chain: { _, _ in false }, user: { _ in false }, noKey: false)

  /// Whether a notification's chain is kept (one that names no chain goes with the lineage "").
  package func keeps(_ n: StoreNotification) -> Bool {
    guard let key = n.chainKey, !key.isEmpty, let node = LineageNode.storeKey(n.store, key).last else {
      return noKey
    }
    let space: RecordBatch.Space =
      node.hasPrefix("a:")
      ? .appStore : node.hasPrefix("s:") ? .stripe : node.hasPrefix("o:") ? .playOrder : .playToken
    return chain(space, String(node.dropFirst(2)))
  }
}

/// What a run is: a whole run, one partition of a partitioned run, or the merge of its partials.
package enum RunMode: Sendable {
  case whole
  /// The keymap, and the SHA-256 of its file.
  case partition(PartitionSpec, LineageKeymap, digest: String)
  case merge(RunPartial)

  package var filter: LineageFilter? {
    switch self {
    case .whole: return nil
    case .partition(let spec, let keymap, _): return .partition(spec, keymap: keymap)
    case .merge: return .nothing
    }
  }

  /// A merge's engine-keyed inputs, from the workers' partials (docs/partitions.md#the-worker-protocol).
  package var engineInputs: [Int: EngineInput] {
    if case .merge(let merged) = self { return merged.engineInputs }
    return [:]
  }
}

extension AppRowSet {
  /// Keeps the rows of the lineages `filter` keeps: entitlements, credentials, goodwill and credits by
  /// user, notifications by chain; assignments and FX rates are the whole run's.
  package mutating func keepLineages(_ filter: LineageFilter) {
    entitlements = entitlements.filtered(users: filter.user)
    credentials = credentials.filtered(users: filter.user)
    goodwill = goodwill.filter { filter.user($0.userId) }
    credits = credits?.filter { filter.user($0.userId) }
    notifications = notifications?.filter { filter.keeps($0) }
    notificationHistory = notificationHistory.filter { filter.keeps($0) }
  }

  /// Joins each row's user with the chains the row names (credentials, entitlements, credits).
  package func joinLineages(into graph: inout LineageGraph) {
    entitlements.joinLineages(into: &graph)
    credentials.joinLineages(into: &graph)
    for c in credits ?? [] {
      graph.join(all: [LineageNode.user(c.userId)] + LineageNode.storeKey(c.store, c.transactionId))
    }
  }
}

extension ReconciliationRun {
  /// The partial of one partition: what its lineages contribute (docs/partitions.md).
  package static func partial(
    _ spec: PartitionSpec, keymap: String, setup: Setup, inputs: Inputs, outcome: Outcome, spill: Bool = false
  )
    -> RunPartial
  {
    var p = RunPartial(partition: spec, date: setup.date)
    p.inputs = inputsDigest(setup, inputs.reports)
    p.keymap = keymap
    let ledger = outcome.ledger
    p.findings = outcome.findings
    p.notificationFields = notificationFields(outcome.findings, rows: inputs.rows, asOf: setup.asOf)
    p.revenue = outcome.revenue
    p.recognition = outcome.recognition
    if !spill { p.charges = outcome.charges ?? ChargeLines.lines(ledger: ledger, settled: outcome.settled) }
    p.counts = CountsRow.rows(ledger: ledger, entitlements: inputs.rows.entitlements, asOf: setup.asOf)
    if !setup.config.playSales.isEmpty { p.playUnits = CountsRow.playUnits(ledger: ledger, day: setup.date) }
    let settings = tieOutSettings(setup.config, reports: inputs.storeReports)
    p.tieOut = TieOut.feedRows(ledger: ledger, reports: inputs.storeReports, settings: settings)
    if !inputs.storeReports.stripeBalance.isEmpty { p.tieOut.stripe = inputs.stripeFeed }
    p.duplicates = outcome.duplicates
    p.grants = GrantRow.rows(
      goodwill: inputs.rows.goodwill, entitlements: inputs.rows.entitlements, asOf: setup.asOf)
    p.unchecked = outcome.unchecked
    if let experiments = experimentSettings(setup.config, rows: inputs.rows, settled: outcome.settled) {
      let calendar = setup.calendar
      p.readouts = Readout.partials(
        experiments: setup.config.experiments, ledger: ledger, credentials: inputs.rows.credentials,
        assignments: inputs.rows.assignments, settings: experiments, dayOf: { calendar.day(of: $0) })
    }
    return p
  }

  /// Each experiment read out from the partitions' crediting passes.
  package static func mergedReadouts(
    _ merged: RunPartial, setup: Setup, inputs: Inputs, settled: SettledProceeds
  )
    throws(RunError) -> [Readout]
  {
    guard let settings = experimentSettings(setup.config, rows: inputs.rows, settled: settled) else {
      return []
    }
    let calendar = setup.calendar
    var out: [Readout] = []
    for experiment in setup.config.experiments {
      let parts = merged.readouts.filter { $0.experimentId == experiment.id }
      do {
        out.append(
          try Readout.merged(
            parts, experiment: experiment, assignments: inputs.rows.assignments, settings: settings,
            asOf: setup.asOf, dayOf: { calendar.day(of: $0) }))
      } catch {
        throw RunError(.dataError, "merge: \(error.message)")
      }
    }
    return out
  }

  /// The merge's outcome: the inputs' reports as this run read them, every lineage's part from the
  /// merged partials.
  package static func mergedOutcome(_ outcome: Outcome, _ merged: RunPartial, setup: Setup, inputs: Inputs)
    throws(RunError) -> Outcome
  {
    var out = outcome
    out.readouts = try mergedReadouts(merged, setup: setup, inputs: inputs, settled: outcome.settled)
    out.findings = merged.findings
    out.revenue = merged.revenue
    out.recognition = merged.recognition
    out.charges = merged.charges
    out.chargeSpills = merged.chargeSpills
    let settings = tieOutSettings(setup.config, reports: inputs.storeReports)
    out.counts = CountsRow.withReportUnits(
      merged.counts, reports: inputs.storeReports, date: setup.date,
      appleDay: latestAppleSalesDay(settings, reports: inputs.storeReports, setup: setup),
      playUnits: setup.config.playSales.isEmpty ? nil : merged.playUnits ?? [:])
    out.tieOut = TieOut.build(
      feed: merged.tieOut, reports: inputs.storeReports, settings: settings, asOf: setup.asOf)
    out.duplicates = merged.duplicates
    out.unchecked = merged.unchecked
    out.grants = merged.grants
    out.notificationFields = merged.notificationFields
    return out
  }

  /// Writes a partition's partial and its rejects files (the manifest and reports are the merge's).
  package static func writePartial(
    _ spec: PartitionSpec, keymap: String, setup: Setup, inputs: Inputs, outcome: Outcome,
    progress: any ProgressSink, worker: (setup: WorkerSetup, asRead: [InputReport])? = nil,
    spill: Bool = false
  ) throws(RunError) -> RunResult {
    var partial = partial(spec, keymap: keymap, setup: setup, inputs: inputs, outcome: outcome, spill: spill)
    if let worker {
      partial.inputs = worker.setup.inputsDigest
      partial.engineInputs = engineShares(
        worker.setup.keyed, reports: worker.asRead, sinks: inputs.rejectFiles)
    }
    let bytes = partial.rendered()
    do {
      try DurableFile.write(bytes, to: setup.staging + "/" + RunPartial.fileName)
    } catch {
      throw RunError(.ioError, error.description)
    }
    var streamed = try finishRejects(inputs.rejectFiles)
    if spill { streamed.append(try spillCharges(setup: setup, outcome: outcome)) }
    progress.note(
      "wrote partition \(spec)'s partial: \(partial.findings.count) findings, \(partial.revenue.count) revenue rows, "
        + "\(bytes.count) bytes; peak RSS \(PeakMemory.residentBytes() / 1_048_576) MB")
    return RunResult(
      date: setup.date, asOf: setup.asOf, outDirectory: setup.out, inputs: inputs.reports,
      findings: outcome.findings, revenue: outcome.revenue, counts: outcome.counts,
      files: [RunPartial.fileName] + streamed.map(\.name))
  }

  /// SHA-256 of the config file's bytes and of every input's role, name, size and checksum (for a
  /// database query, its text's): what a partition and its merge must have read alike.
  package static func inputsDigest(_ setup: Setup, _ reports: [InputReport]) -> String {
    var text = setup.configDigest + "\n"
    for r in reports { text += "\(r.role)\t\(r.path)\t\(r.bytes)\t\(r.sha256)\n" }
    return SHA256Digest.hex(of: Array(text.utf8))
  }

  /// The merge's check that the partials were cut from the inputs it read.
  package static func checkPartials(_ merged: RunPartial, setup: Setup, reports: [InputReport])
    throws(RunError)
  {
    guard merged.inputs == inputsDigest(setup, reports) else {
      throw RunError(
        .dataError,
        "merge: the partials were made from other inputs or another config than this merge reads "
          + "(an input or the config changed since the partitions ran): run the partitions again")
    }
  }

  /// Reads partial files (a partition's folder or its `partial.tsv`) and adds them up.
  package static func readPartials(_ paths: [String]) throws(RunError) -> RunPartial {
    var parts: [RunPartial] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      let file =
        FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        ? path + "/" + RunPartial.fileName : path
      let bytes = try readBytes(file)
      do {
        parts.append(try RunPartial(parsing: bytes))
      } catch {
        throw RunError(.dataError, "partial \(file): \(error.description)")
      }
    }
    do {
      return try RunPartial.merged(parts)
    } catch {
      throw RunError(.dataError, "merge: \(error.message)")
    }
  }

  /// Reads a keymap file; with `share`, only that partition's share of it (a pass's).
  package static func readKeymap(_ path: String, share: PartitionSpec? = nil) throws(RunError) -> (
    keymap: LineageKeymap, digest: String
  ) {
    let bytes = try readBytes(path)
    do {
      return (try LineageKeymap(parsing: bytes, share: share), SHA256Digest.hex(of: bytes))
    } catch {
      throw RunError(.dataError, "keymap \(path): \(error.description)")
    }
  }
}
