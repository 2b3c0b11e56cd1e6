/// The first 16 bytes of an identifier, big-endian in two words, with its length and whether it is all
/// ASCII: orders and compares short ASCII ids (user ids such as `u0001234`) without touching the
/// strings, exactly as `String` does.
///
/// For ASCII text `String`'s order is the order of the bytes, so two ASCII ids whose first 16 bytes
/// (zero-padded) differ are ordered by those bytes, and two ASCII ids of at most 16 bytes with equal
/// padded bytes are equal or ordered by length (the shorter is a prefix of the longer). Every other
/// case goes to `String` (non-ASCII text compares by canonical equivalence).
struct IdentifierKey: Sendable {
  var high: UInt64
  var low: UInt64
  /// Byte length (UTF-8).
  var length: Int
  /// Every byte is ASCII.
  var isASCII: Bool

  /// The key of `id`.
  init(_ id: String) {
    var text = id
    (high, low, length, isASCII) = text.withUTF8 { bytes in
      var high: UInt64 = 0
      var low: UInt64 = 0
      var any: UInt8 = 0
      let n = bytes.count
      for i in 0..<min(n, 8) { high |= UInt64(bytes[i]) << (56 - 8 * UInt64(i)) }
      if n > 8 {
        for i in 8..<min(n, 16) { low |= UInt64(bytes[i]) << (120 - 8 * UInt64(i)) }
      }
      for b in bytes { any |= b }
      return (high, low, n, any < 0x80)
    }
  }

  /// −1, 0 or 1 as `a` is before, equal to (`==`) or after `b` in `String` order; `ka` and `kb` are
  /// their keys.
  @inline(__always)
  static func compare(_ a: String, _ ka: IdentifierKey, _ b: String, _ kb: IdentifierKey) -> Int {
    if ka.isASCII && kb.isASCII {
      if ka.high != kb.high { return ka.high < kb.high ? -1 : 1 }
      if ka.low != kb.low { return ka.low < kb.low ? -1 : 1 }
      if ka.length <= 16 && kb.length <= 16 {
        return ka.length == kb.length ? 0 : (ka.length < kb.length ? -1 : 1)
      }
    }
    if a == b { return 0 }
    return a < b ? -1 : 1
  }
}
