import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// What the whole Stripe read gave the last run — every file's counts, rejected lines and records, the
/// feed, the events, the aliases and the open disputes — kept beside the files' own snapshots
/// (docs/snapshot.md#the-whole-stripe-read). When every Stripe file of the run is, byte for byte, under
/// the same name and role and in the same order among the Stripe files, a file the last run read, the run takes this
/// result instead of replaying each file and building the chains again; any other run builds it as
/// before and keeps the new result.
///
/// The file: the frame of ``SnapshotEnvelope`` (`SRSTREAD`), whose size and SHA-256 are those of the
/// list of files (each file's size and SHA-256, in their order) and whose context digests
/// every file snapshot's context, around the result as ``SnapshotBytes/stripeImport(_:)`` writes it.
package final class StripeReadSnapshot: @unchecked Sendable {
  /// Bumped whenever the layout changes.
  package static let formatVersion: UInt32 = 2
  /// The file's name in the snapshot folder.
  package static let fileName = "stripe-read.bin"

  /// Where it is kept.
  package let path: String
  let envelope: SnapshotEnvelope
  /// Why the old one is not read (`--from-scratch`, an untrusted record), if it is not.
  let fresh: String?

  /// What happened to it in the run.
  package private(set) var outcome = ParseSnapshot.Outcome.unread

  /// The snapshot of the read of `inputs` (each with its file snapshot, which gives its key, report
  /// date and context), kept in the folder of the first's; `nil` when an input has no file snapshot.
  init?(_ inputs: [StripeObjectsReader.Input]) {
    let snapshots = inputs.compactMap(\.snapshot)
    guard let first = snapshots.first, snapshots.count == inputs.count else { return nil }
    var context = SnapshotBytes()
    // Each file by its place among the Stripe files, not its index in the run: another input added
    // before them (the App Store journal's new day) moves every index, not what the read gives.
    for (input, snapshot) in zip(inputs, snapshots) {
      context.flag(input.eventsOnly)
      context.bytes += snapshot.envelope.context
    }
    path = DurableFile.folder(of: first.path) + "/" + StripeReadSnapshot.fileName
    envelope = SnapshotEnvelope(
      magic: "SRSTREAD", version: StripeReadSnapshot.formatVersion,
      context: SHA256Digest.bytes(of: context.bytes), macKey: first.envelope.macKey,
      latestMs: first.envelope.latestMs)
    fresh = first.fresh
  }

  /// The size and SHA-256 the frame stands for: those of the list of every file's size and
  /// SHA-256, in the run's order.
  static func key(_ inputs: [StripeObjectsReader.Input], _ digests: [Int32: (bytes: Int64, sha256: [UInt8])])
    -> (
      size: Int64, sha: [UInt8]
    )?
  {
    var list = SnapshotBytes()
    for input in inputs {
      guard let digest = digests[input.index] else { return nil }
      list.i64(digest.bytes)
      list.bytes += digest.sha256
    }
    return (Int64(list.bytes.count), SHA256Digest.bytes(of: list.bytes))
  }

  /// The result kept for the files `key` stands for, or `nil` (and ``outcome`` says why).
  func load(_ key: (size: Int64, sha: [UInt8]), inputs: [StripeObjectsReader.Input]) -> StripeImport? {
    if let fresh {
      outcome = .parsed(fresh)
      return nil
    }
    switch envelope.open(DurableFile.read(path), size: key.size, sha: key.sha) {
    case .failure(let refusal):
      outcome = .parsed(refusal.reason)
      return nil
    case .success(var reader):
      // The run's indices of the files then, in their order; the result's origins move to today's.
      guard let count = reader.int(), count == inputs.count else {
        outcome = .parsed("the snapshot of the Stripe read does not decode: rebuilt")
        return nil
      }
      var moved: [Int32: Int32] = [:]
      for input in inputs {
        guard let then = reader.u32() else { break }
        moved[Int32(bitPattern: then)] = input.index
      }
      guard moved.count == inputs.count, let result = reader.stripeImport({ moved[$0] }),
        reader.at == reader.bytes.count
      else {
        outcome = .parsed("the snapshot of the Stripe read does not decode: rebuilt")
        return nil
      }
      outcome = .replayed
      return result
    }
  }

  /// Keeps `result` as the read of the files `key` stands for; a result that cannot be written is
  /// noted in ``outcome``.
  func save(_ result: StripeImport, _ key: (size: Int64, sha: [UInt8]), inputs: [StripeObjectsReader.Input]) {
    var body = SnapshotBytes()
    body.int(inputs.count)
    for input in inputs { body.u32(UInt32(bitPattern: input.index)) }
    body.stripeImport(result)
    let sensitive =
      result.mentionsWindow
      || result.files.values.contains { file in
        file.rejects.contains { $0.reason.contains(SnapshotEnvelope.windowWords) }
      }
    do {
      try DurableFile.write(envelope.seal(body, sensitive: sensitive, size: key.size, sha: key.sha), to: path)
    } catch {
      outcome = .notKept("\(error)")
    }
  }
}
