import Foundation
import StoreReconCore
import StoreReconAppRows
import StoreReconPlatform

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

  func apply(to setup: inout ReconciliationRun.Setup) throws(RunError) {
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
  final class Refusals: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var total: Int { lock.withLock { count } }
  }

  /// Drops the notifications of other lineages as they are decoded; `counting` (a worker's keyed
  /// notification inputs, which hold only its lineages): each one dropped is counted.
  static func keepNotifications(_ filter: LineageFilter?, in rows: inout AppRowSet, counting: Bool)
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
  static func keepLineages(
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
  static func taken(
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
  static func engineShares(_ keyed: Set<Int>, reports: [InputReport], sinks: [RejectFileSink]) -> [Int:
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
