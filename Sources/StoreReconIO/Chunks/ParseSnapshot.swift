import StoreReconPlatform
package import StoreReconCore

/// What one input file gave the last run after parsing, kept under the report root so that the next
/// run over the same bytes merges it instead of parsing the file again (docs/snapshot.md).
///
/// The file: the 8 bytes `SRPARSE1`, the format version (4), the context (32: SHA-256 of the binary,
/// the input's name, the signature settings and the chunk size), the latest store instant read (8,
/// T + 10 years), whether a line was rejected for lying past it (1), the input's size (8) and SHA-256
/// (32), the number of chunks (8), each chunk (its lines, its rejected rows, its packed records), then
/// HMAC-SHA-256 of all of that under the key of the record of verified signatures (32). A snapshot
/// that fails any check, or was made for other bytes, is not used: the file is parsed in full and the
/// snapshot written again.
package final class ParseSnapshot: @unchecked Sendable {
  /// Bumped whenever the layout changes.
  package static let formatVersion: UInt32 = 1
  static let magic: [UInt8] = Array("SRPARSE1".utf8)
  static let headerSize = 8 + 4 + 32 + 8 + 1 + 8 + 32 + 8
  /// The words of a reject that depend on the report date (``StoreTimeWindow``).
  static let windowWords = "more than 10 years after the report date"

  /// Where the snapshot of this input is kept.
  package let path: String
  let macKey: [UInt8]
  let context: [UInt8]
  let latestMs: Int64
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
    self.macKey = macKey
    self.context = context
    let ten = StoreTimeWindow.tenYearsMs
    latestMs = asOf.ms > Int64.max - ten ? Int64.max : asOf.ms + ten
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
    guard let bytes = DurableFile.read(path) else { return "no snapshot yet" }
    let n = bytes.count
    guard n >= ParseSnapshot.headerSize + 32, Array(bytes[0..<8]) == ParseSnapshot.magic else {
      return "the snapshot is not one (or is cut short): rebuilt"
    }
    guard HMACSHA256.mac(key: macKey, message: Array(bytes[0..<(n - 32)])) == Array(bytes[(n - 32)...]) else {
      return "the snapshot's check (HMAC) does not match (damaged, edited or another key): rebuilt"
    }
    var reader = SnapshotReader(bytes: Array(bytes[0..<(n - 32)]), at: 8)
    guard let version = reader.u32(), version == ParseSnapshot.formatVersion,
      let context = reader.raw(32), Array(context) == self.context, let latest = reader.i64(),
      let window = reader.byte(), let storedSize = reader.i64(), let storedSHA = reader.raw(32),
      let chunks = reader.int(max: Int.max)
    else { return "the snapshot was made by another build or with other settings" }
    guard storedSize == size, Array(storedSHA) == sha else { return "the file changed" }
    // A line read then is read the same now when no store instant falls between the two latest instants:
    // later is safe unless a line was rejected as lying past the old one.
    guard latest == latestMs || (latest < latestMs && window == 0) else {
      return "the report date moved back (or a line lies more than 10 years ahead)"
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
    var out = SnapshotBytes()
    out.bytes.reserveCapacity(ParseSnapshot.headerSize + body.bytes.count + 32)
    out.bytes += ParseSnapshot.magic
    out.u32(ParseSnapshot.formatVersion)
    out.bytes += context
    out.i64(latestMs)
    out.byte(sensitive ? 1 : 0)
    out.i64(file.size)
    out.bytes += file.sha
    out.int(recorded)
    out.bytes += body.bytes
    out.bytes += HMACSHA256.mac(key: macKey, message: out.bytes)
    do {
      try DurableFile.createFolders(DurableFile.folder(of: path))
      try DurableFile.write(out.bytes, to: path)
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
