import StoreReconPlatform

/// Hands out one shared `String` per distinct byte sequence, for values that repeat across millions of
/// rows (product ids, types, states): one allocation per distinct value instead of one per row.
package final class StringInterner {
  private var table: [UInt64: [String]] = [:]

  /// The interned string spelled by `bytes` (UTF-8).
  package func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    // FNV-1a over the bytes; collisions are resolved by comparing the text.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3
    }
    if let bucket = table[hash] {
      for candidate in bucket where Self.same(candidate, bytes) { return candidate }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    table[hash, default: []].append(text)
    return text
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
