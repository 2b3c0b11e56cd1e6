import StoreReconPlatform

/// The record of the App Store JWS lines that earlier runs verified (docs/signatures.md#verified-once),
/// so that a line whose exact bytes were verified is not verified again.
///
/// A line is known by a key: the first 16 bytes of SHA-256 over the SHA-256 of its input's name and the
/// line's bytes (``JWSVerifier/recordKey(_:)``). Only lines that passed every check are recorded, and a
/// verdict depends on nothing but those bytes and the trusted roots: the chain, the marker OIDs, each
/// certificate's dates against the payload's `signedDate`, `signedDate` against `purchaseDate`, and
/// the signature. So a record made with the same roots and the same ``rulesVersion`` can only say "these
/// bytes passed"; changed bytes, a new line, a line of another input or other roots give another key or
/// another record, and are verified in full.
///
/// The file: the 8 bytes `SRJWSVR1`, the rules version (4 bytes), the roots' fingerprint (32), the
/// number of keys (8), the keys in ascending order (16 each), then HMAC-SHA-256 of all of that under
/// the record's key (32). A record that fails any of these checks is not trusted: it is rebuilt.
package final class VerifiedRecord: Sendable {
  /// Bumped whenever what a verification checks changes; a record of another version is rebuilt.
  package static let rulesVersion: UInt32 = 1
  static let magic: [UInt8] = Array("SRJWSVR1".utf8)
  static let headerSize = 8 + 4 + 32 + 8
  /// Bytes per recorded line.
  package static let bytesPerKey = 16

  /// A recorded line's key: 16 bytes of a SHA-256, as two big-endian words.
  package struct Key: Comparable, Hashable, Sendable {
    package var high: UInt64
    package var low: UInt64

    /// The key of these two words.
    package init(high: UInt64, low: UInt64) {
      self.high = high
      self.low = low
    }

    /// The key of the first 16 bytes of `digest`.
    package init(digest: [UInt8]) {
      precondition(digest.count >= 16, "VerifiedRecord.Key: 16 bytes of a digest")
      var h: UInt64 = 0
      var l: UInt64 = 0
      for i in 0..<8 {
        h = h << 8 | UInt64(digest[i])
        l = l << 8 | UInt64(digest[8 + i])
      }
      self.init(high: h, low: l)
    }

    package static func < (a: Key, b: Key) -> Bool { a.high != b.high ? a.high < b.high : a.low < b.low }
  }

  /// The keys known, ascending, each once.
  private let known: [Key]
  /// The fingerprint of the trusted roots the record was made with (``JWSVerifier/rootsFingerprint``).
  package let roots: [UInt8]
  private let macKey: [UInt8]

  /// A record of `known` (ascending, each once) for `roots`, checked with `macKey`.
  init(known: [Key], roots: [UInt8], macKey: [UInt8]) {
    self.known = known
    self.roots = roots
    self.macKey = macKey
  }

  /// An empty record for `roots`, checked with `macKey`.
  package static func empty(roots: [UInt8], macKey: [UInt8]) -> VerifiedRecord {
    VerifiedRecord(known: [], roots: roots, macKey: macKey)
  }

  /// Lines recorded.
  package var count: Int { known.count }

  /// Whether a line with `key` passed every check in an earlier run.
  package func contains(_ key: Key) -> Bool {
    var low = 0
    var high = known.count
    while low < high {
      let mid = (low + high) >> 1
      let k = known[mid]
      if k == key { return true }
      if k < key { low = mid + 1 } else { high = mid }
    }
    return false
  }

  /// The record in `bytes` when every check holds (its layout, its HMAC under `macKey`, its rules
  /// version, its roots); else an empty record and why the file was not trusted. `nil` bytes (no file
  /// yet): an empty record, no reason.
  package static func open(_ bytes: [UInt8]?, macKey: [UInt8], roots: [UInt8]) -> (
    record: VerifiedRecord, distrust: String?
  ) {
    let empty = VerifiedRecord.empty(roots: roots, macKey: macKey)
    guard let bytes else { return (empty, nil) }
    let n = bytes.count
    guard n >= headerSize + 32, Array(bytes[0..<8]) == magic, (n - headerSize - 32) % bytesPerKey == 0 else {
      return (empty, "it is not a record of verified signatures (or it is cut short)")
    }
    let body = Array(bytes[0..<(n - 32)])
    guard HMACSHA256.mac(key: macKey, message: body) == Array(bytes[(n - 32)...]) else {
      return (empty, "its check (HMAC) does not match: it was damaged, edited, or made under another key")
    }
    let version = word(bytes, at: 8, count: 4)
    guard version == UInt64(rulesVersion) else {
      return (empty, "it was made under version \(version) of the signature rules, this is \(rulesVersion)")
    }
    guard Array(bytes[12..<44]) == roots else { return (empty, "it was made with other trusted roots") }
    let count = Int(clamping: word(bytes, at: 44, count: 8))
    guard count == (n - headerSize - 32) / bytesPerKey else {
      return (empty, "its count of lines does not match its size")
    }
    var keys: [Key] = []
    keys.reserveCapacity(count)
    var at = headerSize
    for _ in 0..<count {
      let key = Key(high: word(bytes, at: at, count: 8), low: word(bytes, at: at + 8, count: 8))
      if let last = keys.last, !(last < key) { return (empty, "its lines are not in order") }
      keys.append(key)
      at += bytesPerKey
    }
    return (VerifiedRecord(known: keys, roots: roots, macKey: macKey), nil)
  }

  /// The file of this record with `fresh` added (in any order, repeats allowed).
  package func bytes(adding fresh: [Key]) -> [UInt8] {
    let added = Array(Set(fresh).subtracting(known)).sorted()
    var out: [UInt8] = []
    out.reserveCapacity(
      VerifiedRecord.headerSize + (known.count + added.count) * VerifiedRecord.bytesPerKey + 32)
    out += VerifiedRecord.magic
    VerifiedRecord.append(UInt64(VerifiedRecord.rulesVersion), bytes: 4, to: &out)
    out += roots
    VerifiedRecord.append(UInt64(known.count + added.count), bytes: 8, to: &out)
    var i = 0
    var j = 0
    while i < known.count || j < added.count {
      let key: Key
      if j == added.count || (i < known.count && known[i] < added[j]) {
        key = known[i]
        i += 1
      } else {
        key = added[j]
        j += 1
      }
      VerifiedRecord.append(key.high, bytes: 8, to: &out)
      VerifiedRecord.append(key.low, bytes: 8, to: &out)
    }
    out += HMACSHA256.mac(key: macKey, message: out)
    return out
  }

  /// The big-endian number in `count` bytes at `offset`.
  static func word(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in offset..<(offset + count) { value = value << 8 | UInt64(bytes[i]) }
    return value
  }

  static func append(_ value: UInt64, bytes count: Int, to out: inout [UInt8]) {
    for i in stride(from: count - 1, through: 0, by: -1) {
      out.append(UInt8(truncatingIfNeeded: value >> (8 * i)))
    }
  }
}
