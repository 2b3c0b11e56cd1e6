import StoreReconPlatform
package import StoreReconCore

/// What one input file gave the last run after parsing, kept under the report root so that the next
/// run over the same bytes merges it instead of parsing the file again (docs/snapshot.md).
///
/// The file: the frame of ``SnapshotEnvelope`` (`SRPARSE1`) around the number of chunks (8) and each
/// chunk (its lines, its rejected rows, its packed records). A snapshot that fails any check, or was
/// made for other bytes, is not used: the file is parsed in full and the snapshot written again.
package final class ParseSnapshot: @unchecked Sendable {
  /// Bumped whenever the layout changes.
  package static let formatVersion: UInt32 = 1
  /// The words of a reject that depend on the report date (``StoreTimeWindow``).
  static let windowWords = SnapshotEnvelope.windowWords

  /// Where the snapshot of this input is kept.
  package let path: String
  let envelope: SnapshotEnvelope
  /// Why the old snapshot is not read (`--from-scratch`, an untrusted record); a new one is written.
  let fresh: String?

  /// What happened to this input's snapshot in the run.
  package enum Outcome: Equatable, Sendable {
    /// Not yet read (or the input was not read through chunks).
    case unread
    /// The file's bytes were the snapshot's: nothing parsed.
    case replayed
    /// Parsed in full, for this reason; the snapshot was written again.
    case parsed(String)
    /// Parsed in full; no snapshot could be kept (said why).
    case notKept(String)
  }

  /// What happened (read on the consumer thread once the input is consumed).
  package private(set) var outcome = Outcome.unread

  private var stored: [UInt8]?
  private var storedChunks = 0
  private var replayAt = 0
  private var recording: SnapshotBytes?
  private var recorded = 0
  private var sensitive = false
  private var file: (size: Int64, sha: [UInt8]) = (0, [])

  /// The snapshot at `path` of an input, under `macKey`, for a parse whose every other dependency
  /// `context` digests, with store instants read up to `asOf` + 10 years; `fresh`: why the old one is
  /// not read, if it is not.
  package init(path: String, macKey: [UInt8], context: [UInt8], asOf: Instant, fresh: String?) {
    self.path = path
    envelope = SnapshotEnvelope(
      magic: "SRPARSE1", version: ParseSnapshot.formatVersion, context: context, macKey: macKey, asOf: asOf)
    self.fresh = fresh
  }

  /// Whether the snapshot holds the parse of a file of `size` bytes with SHA-256 `sha`: then
  /// ``nextChunk()`` gives its chunks; else recording starts (``record(_:)``), and ``outcome`` says why.
  func begin(size: Int64, sha: [UInt8]) -> Bool {
    file = (size, sha)
    if let why = check(size: size, sha: sha) {
      outcome = .parsed(why)
      stored = nil
      recording = SnapshotBytes()
      return false
    }
    outcome = .replayed
    return true
  }

  /// Why the stored snapshot cannot stand for the file, or `nil` when it can (every chunk decoded).
  private func check(size: Int64, sha: [UInt8]) -> String? {
    if let fresh { return fresh }
    var reader: SnapshotReader
    switch envelope.open(DurableFile.read(path), size: size, sha: sha) {
    case .failure(let refusal): return refusal.reason
    case .success(let body): reader = body
    }
    guard let chunks = reader.int(max: Int.max) else {
      return "the snapshot was made by another build or with other settings"
    }
    let start = reader.at
    for _ in 0..<chunks {
      guard ParseSnapshot.decodeChunk(&reader) != nil else { return "the snapshot does not decode: rebuilt" }
    }
    guard reader.at == reader.bytes.count else { return "the snapshot does not decode: rebuilt" }
    stored = reader.bytes
    storedChunks = chunks
    replayAt = start
    return nil
  }

  /// The stored chunks in order (`nil` after the last).
  func nextChunk() -> JSONLinesBatchImport.Chunk? {
    guard let stored, storedChunks > 0 else { return nil }
    var reader = SnapshotReader(bytes: stored, at: replayAt)
    guard let chunk = ParseSnapshot.decodeChunk(&reader) else { return nil }
    replayAt = reader.at
    storedChunks -= 1
    if storedChunks == 0 { self.stored = nil }
    return chunk
  }

  /// Notes a parsed chunk (before its batch is merged).
  func record(_ chunk: JSONLinesBatchImport.Chunk) {
    guard recording != nil else { return }
    guard chunk.tooLong == nil, chunk.error == nil else {
      recording = nil
      outcome = .notKept("the file could not be read to its end")
      return
    }
    recording?.int(chunk.lines)
    recording?.int(chunk.rejects.count)
    for reject in chunk.rejects {
      recording?.int(reject.line)
      recording?.text(reject.reason)
      recording?.text(reject.raw)
      if reject.reason.contains(ParseSnapshot.windowWords) { sensitive = true }
    }
    if var out = recording {
      recording = nil  // (no copy of the bytes while encoding)
      chunk.batch.encode(into: &out)
      recording = out
    }
    recorded += 1
  }

  /// Writes the snapshot of the chunks recorded (the whole file was merged); a snapshot that cannot be
  /// written is noted in ``outcome`` (the next run parses the file in full).
  func finish() {
    guard let body = recording else { return }
    recording = nil
    var framed = SnapshotBytes()
    framed.int(recorded)
    framed.bytes += body.bytes
    let out = envelope.seal(framed, sensitive: sensitive, size: file.size, sha: file.sha)
    do {
      try DurableFile.createFolders(DurableFile.folder(of: path))
      try DurableFile.write(out, to: path)
    } catch {
      outcome = .notKept("\(error)")
    }
  }

  /// A chunk as ``record(_:)`` wrote it.
  static func decodeChunk(_ reader: inout SnapshotReader) -> JSONLinesBatchImport.Chunk? {
    let chunk = JSONLinesBatchImport.Chunk()
    guard let lines = reader.int(), let rejects = reader.int() else { return nil }
    chunk.lines = lines
    for _ in 0..<rejects {
      guard let line = reader.int(), let reason = reader.text(), let raw = reader.text() else { return nil }
      chunk.rejects.append((line, reason, raw))
    }
    var at = reader.at
    guard let batch = RecordBatch.decoded(from: reader.bytes, at: &at) else { return nil }
    reader.at = at
    chunk.batch = batch
    return chunk
  }
}

extension ParseSnapshot {
  /// `bytes` as lower-case hex digits.
  package static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
