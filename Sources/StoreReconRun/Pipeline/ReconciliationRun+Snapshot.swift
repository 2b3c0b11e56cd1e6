import Foundation
import StoreReconImporters
package import StoreReconCore
package import StoreReconIO
package import StoreReconPlatform

extension ReconciliationRun {
  /// The folder of the run's snapshots, beside the record of verified signatures
  /// (`<report root>/parsed-inputs` by default; docs/snapshot.md).
  package static let snapshotFolderName = "parsed-inputs"

  /// Gives each App Store transactions file and each Stripe file of `plan` its snapshot
  /// (docs/snapshot.md), checked with the
  /// key of the whole run's `record` of verified signatures; with `fromScratch`, or when that record
  /// was not trusted, old snapshots are not read. Snapshots of files the plan no longer names are removed.
  package static func attachSnapshots(
    _ plan: inout [PlannedInput], record: VerifiedRecordFile, asOf: Instant, fromScratch: Bool
  ) {
    guard record.key.count >= 32 else { return }
    let fresh =
      fromScratch
      ? "--from-scratch" : record.rebuild ? "the record of verified signatures is not trusted" : nil
    let folder = DurableFile.folder(of: record.path) + "/" + snapshotFolderName
    var kept: Set<String> = []
    let binary = FileDigest.of(path: "/proc/self/exe")?.sha256 ?? "unknown binary"
    for index in plan.indices where plan[index].query == nil {
      let input = plan[index]
      let name = String(ParseSnapshot.hex(SHA256Digest.bytes(of: Array(input.display.utf8))).prefix(32))
      if ["stripe.objects", "stripe.events"].contains(input.role) {
        kept.insert(name + ".bin")
        kept.insert(StripeReadSnapshot.fileName)
        var context = SnapshotBytes()
        context.text(binary)
        context.text(input.display)
        context.text(input.role)
        context.text(input.stripeUserKey)
        plan[index].stripeSnapshot = StripeSnapshot(
          path: folder + "/" + name + ".bin", macKey: record.key,
          context: SHA256Digest.bytes(of: context.bytes), asOf: asOf, fresh: fresh)
        continue
      }
      guard input.role == "app_store.transactions" else { continue }
      kept.insert(name + ".bin")
      let verifier = input.verifier ?? JWSVerifier()
      var context = SnapshotBytes()
      context.text(binary)
      context.text(input.display)
      context.text(verifier.mode.rawValue)
      context.bytes += verifier.rootsFingerprint
      context.int(JSONLinesBatchImport.chunkSize)
      plan[index].snapshot = ParseSnapshot(
        path: folder + "/" + name + ".bin", macKey: record.key,
        context: SHA256Digest.bytes(of: context.bytes),
        asOf: asOf, fresh: fresh)
    }
    // A file no input names any more: its snapshot goes.
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasSuffix(".bin") && !kept.contains(name) {
      try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }
  }

  /// Says on `progress` what the snapshots of `plan` saved, one line for the App Store files and one for
  /// Stripe's: how many files were merged without being parsed, and why the others were parsed.
  package static func noteSnapshots(_ plan: [PlannedInput], progress: any ProgressSink) {
    for stripe in [false, true] {
      var replayed = 0
      var parsed: [String: Int] = [:]
      var folder = ""
      for input in plan where (input.stripeSnapshot != nil) == stripe {
        guard let (path, outcome) = input.snapshotOutcome else { continue }
        folder = DurableFile.folder(of: path)
        switch outcome {
        case .unread: break
        case .replayed: replayed += 1
        case .parsed(let why): parsed[why, default: 0] += 1
        case .notKept(let why):
          progress.note("warning: the snapshot of \(input.display) was not kept (\(why)); it is parsed again")
        }
      }
      guard replayed + parsed.values.reduce(0, +) > 0 else { continue }
      let reasons = parsed.sorted { $0.key < $1.key }.map { "\($0.value): \($0.key)" }
      let kind = stripe ? "Stripe" : "App Store"
      progress.note(
        "snapshot: \(replayed) \(kind) file\(replayed == 1 ? "" : "s") merged without parsing, "
          + "\(parsed.values.reduce(0, +)) parsed in full"
          + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")") + " (\(folder))")
    }
  }
}

extension ReconciliationRun.PlannedInput {
  /// Where this input's snapshot is kept and what happened to it, if it has one.
  var snapshotOutcome: (path: String, outcome: ParseSnapshot.Outcome)? {
    if let s = snapshot { return (s.path, s.outcome) }
    if let s = stripeSnapshot { return (s.path, s.outcome) }
    return nil
  }
}
