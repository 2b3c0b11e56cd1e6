/// The partition of a lineage: FNV-1a 64 of its key's UTF-8 bytes, modulo the partition count
/// (docs/partitions.md). Stable across versions, machines and languages: the Spark adapter computes
/// the same number in Python.
package enum LineageHash {
  /// FNV-1a 64's offset basis (the hash of no bytes).
  package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  /// FNV-1a 64's prime.
  package static let prime: UInt64 = 0x0000_0100_0000_01b3

  /// FNV-1a 64 of `bytes`.
  package static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash = offsetBasis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= prime
    }
    return hash
  }

  /// The partition (0 ..< `count`) of lineage key `key`.
  package static func partition(of key: String, count: Int) -> Int {
    precondition(count > 0, "a partition count is positive")
    return Int(fnv1a64(key.utf8) % UInt64(count))
  }
}
