import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// What one `stripe.objects` or `stripe.events` file gave the last run after parsing, kept under the
/// report root so that the next run over the same bytes replays it instead of parsing the file again
/// (docs/snapshot.md#stripe).
///
/// The file: the frame of ``SnapshotEnvelope`` (`SRSTRIP1`) around each line's effect on the read, in
/// line order (the object it gave, with what the chains read of it or why that cannot be read; the
/// event it is; the type it names when the reader does not use it), a zero byte, then the file's counts
/// and its rejected lines. Replaying the effects in order through the same steps as a parse
/// (``StripeObjectsReader``) gives the same latest states, duplicates, events and counts.
package final class StripeSnapshot: @unchecked Sendable {
  /// Bumped whenever the layout changes.
  package static let formatVersion: UInt32 = 1

  /// Where the snapshot of this input is kept.
  package let path: String
  let envelope: SnapshotEnvelope
  /// Why the old snapshot is not read (`--from-scratch`, an untrusted record); a new one is written.
  private(set) var fresh: String?

  /// What happened to this input's snapshot in the run.
  package private(set) var outcome = ParseSnapshot.Outcome.unread

  private var recording: SnapshotBytes?
  private var sensitive = false
  private var file: (size: Int64, sha: [UInt8]) = (0, [])

  /// The snapshot at `path` of an input, under `macKey`, for a parse whose every other dependency
  /// `context` digests, with store instants read up to `asOf` + 10 years; `fresh`: why the old one is
  /// not read, if it is not.
  package init(path: String, macKey: [UInt8], context: [UInt8], asOf: Instant, fresh: String?) {
    self.path = path
    envelope = SnapshotEnvelope(
      magic: "SRSTRIP1", version: StripeSnapshot.formatVersion, context: context, macKey: macKey, asOf: asOf)
    self.fresh = fresh
  }

  /// The stored effects when the snapshot holds the parse of a file of `size` bytes with SHA-256
  /// `sha` (a reader at the first); else `nil`, recording starts (``record(_:)``), and ``outcome``
  /// says why.
  func begin(size: Int64, sha: [UInt8]) -> SnapshotReader? {
    file = (size, sha)
    if let fresh {
      return parsing(fresh)
    }
    switch envelope.open(DurableFile.read(path), size: size, sha: sha) {
    case .failure(let refusal): return parsing(refusal.reason)
    case .success(let reader):
      outcome = .replayed
      return reader
    }
  }

  private func parsing(_ why: String) -> SnapshotReader? {
    outcome = .parsed(why)
    recording = SnapshotBytes()
    return nil
  }

  /// Notes that the file's bytes were those the whole read's snapshot was made from
  /// (``StripeReadSnapshot``): nothing of it was parsed or replayed, and its own snapshot stands.
  func takenWhole() { outcome = .replayed }

  /// Makes the next ``begin(size:sha:)`` parse, for `why` (a stored snapshot that did not decode).
  func refuse(_ why: String) {
    fresh = why
    outcome = .unread
  }

  /// Notes one line's effect (before it is applied).
  func record(_ effect: StripeLineEffect) {
    guard recording != nil else { return }
    if effect.mentionsWindow { sensitive = true }
    recording?.effect(effect)
  }

  /// Keeps no snapshot of this file, for `why` (it could not be read to its end, it changed while read).
  func drop(_ why: String) {
    guard recording != nil else { return }
    recording = nil
    outcome = .notKept(why)
  }

  /// Writes the snapshot of the effects recorded, with the file's `counts` and `rejects` (the whole
  /// file was read); a snapshot that cannot be written is noted in ``outcome``.
  func finish(counts: InputCounts, rejects: [Reject]) {
    guard var body = recording else { return }
    recording = nil
    body.byte(0)
    body.int(counts.read)
    body.int(counts.accepted)
    body.int(counts.rejected)
    body.int(rejects.count)
    for reject in rejects {
      body.int(reject.line)
      body.text(reject.reason)
      body.text(reject.raw)
      if reject.reason.contains(SnapshotEnvelope.windowWords) { sensitive = true }
    }
    let bytes = envelope.seal(body, sensitive: sensitive, size: file.size, sha: file.sha)
    body = SnapshotBytes()
    do {
      try DurableFile.write(bytes, to: path)
    } catch {
      outcome = .notKept("\(error)")
    }
  }

  /// Replays the stored effects of file `index` (shown as `display`) through `apply`; the file's counts
  /// and rejected lines, or `nil` when the stored bytes do not decode (some effects may have been applied).
  static func replay(
    _ reader: inout SnapshotReader, index: Int32, display: String, _ apply: (StripeLineEffect) -> Void
  ) -> (counts: InputCounts, rejects: [Reject])? {
    while true {
      guard let tag = reader.byte() else { return nil }
      if tag == 0 { break }
      guard let effect = reader.effect(tag: tag, file: index) else { return nil }
      apply(effect)
    }
    guard let read = reader.int(max: Int.max), let accepted = reader.int(max: Int.max),
      let rejected = reader.int(max: Int.max), let count = reader.int(max: Int.max)
    else { return nil }
    var rejects: [Reject] = []
    for _ in 0..<count {
      guard let line = reader.int(max: Int.max), let reason = reader.text(), let raw = reader.text() else {
        return nil
      }
      rejects.append(Reject(file: display, line: line, reason: reason, raw: raw))
    }
    guard reader.at == reader.bytes.count else { return nil }
    return (InputCounts(read: read, accepted: accepted, rejected: rejected), rejects)
  }
}

/// What one line of a Stripe file does to the read: an event of a `stripe.events` file, or an object
/// line (with the event it is, when it is one).
enum StripeLineEffect {
  case history(StoreNotification)
  case line(event: StoreNotification?, StripeObject.Line)

  /// Whether a reason it carries depends on the report date.
  var mentionsWindow: Bool {
    guard case .line(_, .object(let object)) = self, case .failure(let why) = object.part else {
      return false
    }
    return why.reason.contains(SnapshotEnvelope.windowWords)
  }
}
