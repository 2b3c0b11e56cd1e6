import Foundation
package import StoreReconPlatform
import StoreReconCore
package import StoreReconDemo
package import StoreReconRun

/// `storerecon demo`: writes the seeded sample world, reconciles it, and checks the findings against
/// the problems the generator planted.
package enum DemoRun {
  /// What the demo printed and how it should exit.
  package struct Outcome: Sendable {
    /// The run itself.
    package var result: RunResult
    /// What the generator planted.
    package var truth: DemoTruth
    /// Planted findings the run did not report.
    package var missed: [PlantedFinding]
    /// Reported findings that were not planted.
    package var unexpected: [PlantedFinding]
    /// The tie-out check (`nil` when the run produced no tie-out).
    package var tieOut: DemoTieOutCheck.Result?
    /// Text for stdout.
    package var text: String
    /// 0 when the findings and the tie-out match the truth exactly, 1 otherwise (65 if an input failed as a whole).
    package var exitCode: Int32
  }

  /// Generates the world into `directory` and runs the job on it.
  package static func execute(
    options: DemoOptions, directory: String, progress: any ProgressSink, showPercent: Bool = false,
    dayBefore: Bool = false
  )
    throws(RunError)
    -> Outcome
  {
    let clock = ContinuousClock()
    let started = clock.now
    let truth: DemoTruth
    let percent = PercentProgress(label: "generating the demo world", enabled: showPercent)
    do {
      truth = try DemoWorld.generate(options, into: directory) { percent.update($0, of: $1) }
    } catch let error as DemoError {
      switch error {
      case .tooFewUsers: throw RunError(.usage, error.description)
      case .cannotWrite: throw RunError(.ioError, "cannot write the demo world to \(directory): \(error)")
      default: throw RunError(.software, error.description)
      }
    } catch {
      throw RunError(.ioError, "cannot write the demo world to \(directory): \(error)")
    }
    percent.finish()
    progress.note(
      "wrote a demo world of \(options.users) users (seed \(options.seed)) to \(directory) in \(ReconciliationRun.milliseconds(clock.now - started)) ms"
    )
    try runDayBefore(options: options, directory: directory, progress: progress, enabled: dayBefore)
    let result = try ReconciliationRun.execute(
      ReconciliationRun.Request(
        configPath: directory + "/storerecon.json", date: options.asOf,
        outDirectory: directory + "/reports/\(options.asOf)"),
      progress: progress)
    let found = Set(
      result.findings.map {
        PlantedFinding(
          kind: $0.kind.rawValue, reason: $0.reason.rawValue, store: $0.store, chainKey: $0.chainKey,
          userId: $0.userId)
      })
    let planted = Set(truth.planted)
    let missed = planted.subtracting(found).sorted()
    let unexpected = found.subtracting(planted).sorted()

    // The status line first, as `run` prints it.
    var text = result.summary.map { $0.headline + "\n" } ?? ""
    text += Summary.text(result)
    text +=
      "demo world: \(directory) (\(options.users) users, seed \(options.seed)); planted problems: \(directory)/truth/planted_findings.csv\n"
    if missed.isEmpty && unexpected.isEmpty {
      text +=
        "check: all \(planted.count) planted findings reported, nothing else (precision 1.0, recall 1.0)\n"
    } else {
      text += "check: MISMATCH — \(missed.count) planted finding(s) missed, \(unexpected.count) unexpected\n"
      for m in missed.prefix(20) {
        text += "  missed     \(m.kind)/\(m.reason) \(m.store.rawValue) \(m.chainKey) \(m.userId)\n"
      }
      for u in unexpected.prefix(20) {
        text += "  unexpected \(u.kind)/\(u.reason) \(u.store.rawValue) \(u.chainKey) \(u.userId)\n"
      }
    }
    // Each planted refund one source shows names its source (said only where one does not).
    let sources = DemoRefundSourceCheck.misses(
      result.findings.map { ($0.chainKey, $0.reason.rawValue, $0.detail) }, expected: truth.refundSources)
    if !sources.isEmpty {
      text +=
        "refund source check: MISMATCH — \(sources.count) planted refund(s) one source shows not named by their finding\n"
      for line in sources.prefix(20) { text += "  \(line)\n" }
    }
    let tieOut = tieOutCheck(result, truth)
    text += tieOut.text
    let payouts = payoutCheck(result, truth)
    text += payouts.text
    let exitCode: Int32 =
      !result.failedInputs.isEmpty
      ? RunError.Code.dataError.rawValue
      : (missed.isEmpty && unexpected.isEmpty && sources.isEmpty && tieOut.exact && payouts.exact ? 0 : 1)
    return Outcome(
      result: result, truth: truth, missed: missed, unexpected: unexpected, tieOut: tieOut.result, text: text,
      exitCode: exitCode)
  }

  /// A new world starts a new history (the runs of an earlier world in this folder are not its past);
  /// then, when `enabled`, the morning before the report date runs on the same world, so the report
  /// date has a run to compare with and shows what is new, still open and resolved (docs/cases.md).
  static func runDayBefore(options: DemoOptions, directory: String, progress: any ProgressSink, enabled: Bool)
    throws(RunError)
  {
    let history = directory + "/reports/" + HistoryLocation.defaultFileName
    for suffix in ["", "-journal", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: history + suffix)
    }
    guard enabled else { return }
    let previous = CivilDate(daysSinceEpoch: options.asOf.daysSinceEpoch - 1)
    progress.note("the day before first (\(previous)), so that \(options.asOf) has a run to compare with")
    _ = try ReconciliationRun.execute(
      ReconciliationRun.Request(
        configPath: directory + "/storerecon.json", date: previous,
        outDirectory: directory + "/reports/\(previous)"),
      progress: progress)
  }

  /// The payout check's lines, and whether the run's payouts.csv has exactly the planted differences:
  /// every planted line with its status, and no other line that does not add up.
  static func payoutCheck(_ result: RunResult, _ truth: DemoTruth) -> (text: String, exact: Bool) {
    let found = Set(result.payouts.filter { $0.status != .addsUp }.map(PlantedPayout.init))
    let planted = Set(truth.tieOut.payouts)
    let missed = planted.subtracting(found).sorted()
    let unexpected = found.subtracting(planted).sorted()
    guard missed.isEmpty && unexpected.isEmpty else {
      var text =
        "payout check: MISMATCH — \(missed.count) planted payout difference(s) missed, \(unexpected.count) unexpected\n"
      for m in missed.prefix(20) { text += "  missed     \(m.line)\n" }
      for u in unexpected.prefix(20) { text += "  unexpected \(u.line)\n" }
      return (text, false)
    }
    return (
      "payout check: all \(planted.count) planted payout differences reported, nothing else (precision 1.0, recall 1.0)\n",
      true
    )
  }

  /// The tie-out check's lines, and whether the run's tie-out is exactly the planted one (an empty
  /// tie-out of the demo world, which always has reports, misses every plant and fails the demo).
  static func tieOutCheck(_ result: RunResult, _ truth: DemoTruth) -> (
    text: String, exact: Bool, result: DemoTieOutCheck.Result?
  ) {
    let check = DemoTieOutCheck.check(result.tieOut, truth: truth)
    return (check.text(planted: truth.tieOut.plantedCount), check.isExact, check)
  }
}
