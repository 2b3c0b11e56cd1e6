import Foundation
import StoreReconCore
import StoreReconPlatform
import StoreReconReports

/// A run in passes (docs/partitions.md#runs-in-passes): where the inputs would need more working set
/// than `--memory`, the run reconciles its lineages a partition at a time, one after another, and
/// merges the partials as `storerecon merge` does.
extension ReconciliationRun {
  /// `--memory`'s default: no budget, one pass. Passes do not yet lower the peak (the keymap pass and
  /// each pass's read hold every app row: docs/partitions.md#runs-in-passes), so they are asked for,
  /// never imposed: a default of 1 GiB made every world above ~2.2 GB of input slower and no smaller.
  package static let defaultMemoryBytes = Int64.max

  /// Working set per byte of input, in thousandths: measured at 300,000 realistic users (1.81 GB of
  /// inputs, peak RSS 766 MB in one pass: 0.44 a byte, rounded up).
  package static let workingSetPerMilleOfInput: Int64 = 450

  /// A gzip or zip input holds about this many times its size once inflated (the stores' CSV reports).
  package static let compressedInputFactor: Int64 = 8

  /// The working set a one-pass run of `plan` needs, estimated from its inputs' sizes on disk (a gzip
  /// or zip file counted ``compressedInputFactor`` times; an input read from the database: nothing,
  /// as its rows are not known before they are read).
  package static func estimatedWorkingSet(_ plan: [PlannedInput]) -> Int64 {
    var bytes: Int64 = 0
    for input in plan where input.query == nil {
      let attributes = try? FileManager.default.attributesOfItem(atPath: input.path)
      let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
      let lower = input.path.lowercased()
      let compressed = lower.hasSuffix(".gz") || lower.hasSuffix(".zip")
      bytes += size * (compressed ? compressedInputFactor : 1)
    }
    return bytes.multipliedReportingOverflow(by: workingSetPerMilleOfInput).partialValue / 1000
  }

  /// How many passes a working set of `workingSet` bytes takes within `budget` bytes: one while it fits,
  /// else enough partitions that each pass's share fits (at most ``PartitionSpec/maxCount``).
  package static func passCount(workingSet: Int64, budget: Int64) -> Int {
    guard budget > 0, workingSet > budget else { return 1 }
    let n = workingSet / budget + (workingSet % budget == 0 ? 0 : 1)
    return Int(min(n, Int64(PartitionSpec.maxCount)))
  }

  /// Writes a pass's charges.csv lines, in report order, to ``ChargeSpill/fileName`` in its folder.
  static func spillCharges(setup: Setup, outcome: Outcome) throws(RunError) -> (
    name: String, bytes: Int64, sha256: String
  ) {
    do {
      let file = try DurableFile.Stream(path: setup.staging + "/" + ChargeSpill.fileName)
      try ChargeSpill.write(ledger: outcome.ledger, settled: outcome.settled) {
        (piece: [UInt8]) throws(DurableFile.WriteError) in try file.append(piece)
      }
      let written = try file.finish()
      return (ChargeSpill.fileName, written.bytes, written.sha256)
    } catch {
      throw RunError(.ioError, error.description)
    }
  }
}
