import Foundation
package import StoreReconPlatform
package import StoreReconCore
import StoreReconReports

/// A whole run within `--memory` (docs/partitions.md#runs-in-passes).
extension ReconciliationRun {
  /// Runs the job as ``execute(_:adapters:progress:)`` does, in one pass while the inputs'
  /// estimated working set fits `request.memoryBytes`, else in passes by lineage inside this process:
  /// the keymap, then each partition one after another (its partial and its charges spilled to a
  /// temporary folder), then their merge, which writes the reports a one-pass run writes.
  package static func executeWithinMemory(
    _ request: Request, adapters: RunAdapters, progress: any ProgressSink
  ) throws(RunError) -> RunResult {
    // Without a budget, or where the plan cannot be made, the one-pass run is the run (and names
    // what is wrong with the config or the inputs exactly as it always has).
    guard case .whole = request.mode, request.worker == nil, request.memoryBytes < defaultMemoryBytes,
      let config = try? RunConfig.load(path: request.configPath),
      let calendar = ReportCalendar(identifier: config.timeZone),
      let planned = try? planInputs(
        config, configPath: request.configPath, appFiles: (request.database ?? config.database) == nil,
        allowMissing: true)
    else {
      return try execute(request, adapters: adapters, progress: progress)
    }
    let workingSet = estimatedWorkingSet(planned.0)
    let passes = passCount(workingSet: workingSet, budget: request.memoryBytes)
    guard passes > 1 else { return try execute(request, adapters: adapters, progress: progress) }
    var whole = request
    whole.date = request.date ?? calendar.yesterday()
    return try executeInPasses(
      whole, passes: passes, workingSet: workingSet, adapters: adapters, progress: progress)
  }

  /// The run in `passes` passes; the temporary folder is removed when it ends, whatever the outcome.
  static func executeInPasses(
    _ request: Request, passes: Int, workingSet: Int64, adapters: RunAdapters, progress: any ProgressSink
  ) throws(RunError) -> RunResult {
    let folder = NSTemporaryDirectory() + "storerecon-passes-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.removeItem(atPath: folder)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw RunError(
        .ioError, "cannot create the passes' temporary folder \(folder): \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    progress.note(
      "memory: the inputs need about \(workingSet / 1_048_576) MB of working set, more than --memory "
        + "\(request.memoryBytes / 1_048_576) MB: \(passes) passes by lineage, spilling to \(folder)")
    let keymapPath = folder + "/keymap.tsv"
    progress.note(try writeKeymap(request, to: keymapPath, adapters: adapters, progress: progress))
    var parts: [String] = []
    for index in 0..<passes {
      guard let spec = PartitionSpec(index: index, count: passes) else {
        throw RunError(.software, "passes: no partition \(index) of \(passes)")
      }
      // Each pass holds only its share of the keymap, read afresh.
      let (keymap, digest) = try readKeymap(keymapPath, share: spec)
      var pass = request
      pass.mode = .partition(spec, keymap, digest: digest)
      pass.outDirectory = folder + "/pass\(index)"
      pass.history = false
      pass.spillCharges = true
      pass.filtersWhileReading = true
      progress.note("pass \(index + 1) of \(passes): the lineages of partition \(spec)")
      _ = try execute(pass, adapters: adapters, progress: progress)
      // The pass's ledger, rows and outcome went with its scope: hand what they held back.
      FreeMemory.release()
      parts.append(folder + "/pass\(index)")
    }
    var merged = try readPartials(parts)
    merged.chargeSpills = parts.map { $0 + "/" + ChargeSpill.fileName }
    progress.note(
      "passes done: merging \(passes) partials (temporary folder \(folderBytes(folder) / 1_048_576) MB; "
        + "peak RSS \(PeakMemory.residentBytes() / 1_048_576) MB)")
    var last = request
    last.mode = .merge(merged)
    last.filtersWhileReading = true
    return try execute(last, adapters: adapters, progress: progress)
  }

  /// The bytes of the files in `folder` and below.
  static func folderBytes(_ folder: String) -> Int64 {
    var total: Int64 = 0
    let files = FileManager.default.enumerator(atPath: folder)
    while let name = files?.nextObject() as? String {
      let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
      total += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
    return total
  }
}
