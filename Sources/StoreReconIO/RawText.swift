/// The text of a rejected row as kept in a reject: at most ``limit`` bytes, cut on a UTF-8 boundary.
package enum RawText {
  /// How many bytes of a row a reject keeps.
  package static let limit = 500

  /// `bytes` as a `String`, cut to ``limit`` bytes (on a character boundary) with `…` appended when cut.
  package static func truncated(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
    var cut = limit
    while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<cut]), as: UTF8.self) + "…"
  }

  /// `text` cut to ``limit`` bytes, as ``truncated(_:)-(UnsafeBufferPointer<UInt8>)`` does.
  package static func truncated(_ text: String) -> String {
    var text = text
    return text.withUTF8 { truncated($0) }
  }
}
