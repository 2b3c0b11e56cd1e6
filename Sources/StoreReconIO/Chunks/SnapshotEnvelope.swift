import StoreReconPlatform
package import StoreReconCore

/// The frame every snapshot of a parsed input shares (docs/snapshot.md): what it was made from and
/// the check that it was made by this run's key, around a body each kind of input writes its own way.
///
/// The frame: the 8 bytes of `magic`, the format `version` (4), the `context` (32: SHA-256 of the
/// binary, the input's name and every setting the parse depends on), the latest store instant read
/// (8, T + 10 years), whether a line was rejected for lying past it (1), the input's size (8) and
/// SHA-256 (32); then the body; then HMAC-SHA-256 of all of that under `macKey` (32).
package struct SnapshotEnvelope: Sendable {
  package let magic: [UInt8]
  package let version: UInt32
  package let context: [UInt8]
  package let macKey: [UInt8]
  /// The latest store instant the run reads (exclusive): T + 10 years.
  package let latestMs: Int64

  /// The bytes before the body.
  static let headerSize = 8 + 4 + 32 + 8 + 1 + 8 + 32
  /// The words of a reject that depend on the report date (``StoreTimeWindow``).
  package static let windowWords = "more than 10 years after the report date"

  /// The frame of snapshots tagged `magic` (8 bytes) in format `version`, for a parse whose every other
  /// dependency `context` digests, checked under `macKey`, reading store instants up to `asOf` + 10 years.
  package init(magic: String, version: UInt32, context: [UInt8], macKey: [UInt8], asOf: Instant) {
    let ten = StoreTimeWindow.tenYearsMs
    self.init(
      magic: magic, version: version, context: context, macKey: macKey,
      latestMs: asOf.ms > Int64.max - ten ? Int64.max : asOf.ms + ten)
  }

  /// The frame of another kind of snapshot made alongside one of this frame (its key and latest instant).
  package init(magic: String, version: UInt32, context: [UInt8], macKey: [UInt8], latestMs: Int64) {
    self.magic = Array(magic.utf8)
    self.version = version
    self.context = context
    self.macKey = macKey
    self.latestMs = latestMs
  }

  /// The body of the snapshot `bytes` when it stands for a file of `size` bytes with SHA-256 `sha`: a
  /// reader positioned at the body's start over the bytes before the check; else why not (the reasons
  /// docs/snapshot.md lists).
  package func open(_ stored: consuming [UInt8]?, size: Int64, sha: [UInt8]) -> Opened {
    guard var body = stored else { return .failure(Refusal("no snapshot yet")) }
    let n = body.count
    guard n >= SnapshotEnvelope.headerSize + 32, Array(body[0..<8]) == magic else {
      return .failure(Refusal("the snapshot is not one (or is cut short): rebuilt"))
    }
    // The check is taken off the end in place: a snapshot of hundreds of megabytes is not copied.
    let check = Array(body[(n - 32)...])
    body.removeLast(32)
    guard HMACSHA256.mac(key: macKey, message: body) == check else {
      return .failure(
        Refusal("the snapshot's check (HMAC) does not match (damaged, edited or another key): rebuilt"))
    }
    var reader = SnapshotReader(bytes: body, at: 8)
    guard let version = reader.u32(), version == self.version,
      let context = reader.raw(32), Array(context) == self.context, let latest = reader.i64(),
      let window = reader.byte(), let storedSize = reader.i64(), let storedSHA = reader.raw(32)
    else { return .failure(Refusal("the snapshot was made by another build or with other settings")) }
    guard storedSize == size, Array(storedSHA) == sha else { return .failure(Refusal("the file changed")) }
    // A line read then is read the same now when no store instant falls between the two latest instants:
    // later is safe unless a line was rejected as lying past the old one.
    guard latest == latestMs || (latest < latestMs && window == 0) else {
      return .failure(Refusal("the report date moved back (or a line lies more than 10 years ahead)"))
    }
    return .success(reader)
  }

  /// The snapshot of `body` for a file of `size` bytes with SHA-256 `sha`; `sensitive`: a line was
  /// rejected for lying more than 10 years after the report date.
  package func seal(_ body: SnapshotBytes, sensitive: Bool, size: Int64, sha: [UInt8]) -> [UInt8] {
    var out = SnapshotBytes()
    out.bytes.reserveCapacity(SnapshotEnvelope.headerSize + body.bytes.count + 32)
    out.bytes += magic
    out.u32(version)
    out.bytes += context
    out.i64(latestMs)
    out.byte(sensitive ? 1 : 0)
    out.i64(size)
    out.bytes += sha
    out.bytes += body.bytes
    out.bytes += HMACSHA256.mac(key: macKey, message: out.bytes)
    return out.bytes
  }

  /// A reader at the body, or why the snapshot is not used.
  package typealias Opened = Result<SnapshotReader, Refusal>

  /// Why a snapshot is not used.
  package struct Refusal: Error, Sendable {
    package let reason: String
    init(_ reason: String) { self.reason = reason }
  }
}
