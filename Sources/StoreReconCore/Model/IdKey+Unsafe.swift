// Safety: `packed` reads only `bytes[0..<bytes.count]` of a buffer `String.withUTF8` lends for the
// duration of the call; it keeps no pointer past it and writes nothing through it.

extension IdKey {
  /// The packed key of ASCII `bytes` of at most 32 bytes; `nil` for other bytes.
  static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> IdKey? {
    guard bytes.count <= 32 else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    for i in 0..<bytes.count {
      let b = bytes[i]
      guard b <= 0x7F else { return nil }
      let shift = UInt64(56 - 8 * (i % 8))
      switch i / 8 {
      case 0: words.0 |= UInt64(b) << shift
      case 1: words.1 |= UInt64(b) << shift
      case 2: words.2 |= UInt64(b) << shift
      default: words.3 |= UInt64(b) << shift
      }
    }
    return .packed(words.0, words.1, words.2, words.3, count: UInt8(bytes.count))
  }
}
