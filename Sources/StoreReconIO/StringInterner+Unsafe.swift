// Safety: `bytes` is read during the call only (the interned text is a copy); memcmp compares two buffers of
// the same count.

import StoreReconPlatform

/// Hands out one shared `String` per distinct byte sequence, for values that repeat across millions of
/// rows (product ids, types, states): one allocation per distinct value instead of one per row.
package final class StringInterner {
  private var table: [UInt64: [String]] = [:]

  /// The interned string spelled by `bytes` (UTF-8).
  package func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let hash = StringInterner.hash(bytes)
    if let bucket = table[hash] {
      for candidate in bucket where Self.same(candidate, bytes) { return candidate }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    table[hash, default: []].append(text)
    return text
  }

  /// FNV-1a over the bytes; collisions are resolved by comparing the text.
  @inline(__always)
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3
    }
    return hash
  }

  private static func same(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var text = text
    return text.withUTF8 { stored in
      guard stored.count == bytes.count else { return false }
      guard let a = stored.baseAddress, let b = bytes.baseAddress else { return stored.count == 0 }
      return Memory.memcmp(a, b, stored.count) == 0
    }
  }

  /// An empty interner.
  package init() {}
}

extension StringInterner {
  /// What is wrong with the interner (nothing: empty): every string in the bucket of its own hash, and
  /// no text kept twice. For tests and debugging.
  package func checkInvariants() -> [String] {
    var problems: [String] = []
    var seen = Set<[UInt8]>()
    for (hash, bucket) in table {
      for text in bucket {
        let bytes = Array(text.utf8)
        let home = bytes.withUnsafeBufferPointer { StringInterner.hash($0) }
        if home != hash {
          problems.append("StringInterner: \(text.debugDescription) is in the bucket of \(hash)")
        }
        if !seen.insert(bytes).inserted {
          problems.append("StringInterner: \(text.debugDescription) is kept twice")
        }
      }
    }
    return problems
  }

  /// Files `text` under `hash` (by default its own) as it is, without looking for it first: breaks the
  /// interner on purpose, for tests of ``checkInvariants()``.
  func file(_ text: String, under hash: UInt64? = nil) {
    let own = Array(text.utf8).withUnsafeBufferPointer { StringInterner.hash($0) }
    table[hash ?? own, default: []].append(text)
  }
}
