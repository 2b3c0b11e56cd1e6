/// The text of a rejected row as kept in a reject: at most ``limit`` bytes, cut on a UTF-8 boundary.
package enum RawText {
  /// How many bytes of a row a reject keeps.
  package static let limit = 500

  /// `text` cut to ``limit`` bytes, as ``truncated(_:)-(UnsafeBufferPointer<UInt8>)`` does.
  package static func truncated(_ text: String) -> String {
    var text = text
    return text.withUTF8 { truncated($0) }
  }
}
