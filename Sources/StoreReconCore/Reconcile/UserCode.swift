/// A user id as one 64-bit number, exact for the short ASCII ids most apps use, so that "same user?"
/// compares numbers instead of reading two rows' strings.
///
/// An ASCII id of at most 8 bytes is coded exactly (its length and its bytes, 7 bits each): two such
/// codes are equal exactly when the ids are equal (for ASCII, `String` equality is byte equality). Any
/// other id is ``inexact``: compare the strings.
enum UserCode {
  /// The code of an id that is not coded exactly.
  static let inexact = UInt64.max

  /// The code of `id`.
  @inline(__always)
  static func of(_ id: String) -> UInt64 {
    id.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
      guard bytes.count <= 8 else { return inexact }
      var code = UInt64(bytes.count) << 56
      for (i, b) in bytes.enumerated() {
        guard b < 0x80 else { return inexact }
        code |= UInt64(b) << (7 * UInt64(i))
      }
      return code
    } ?? inexact
  }
}
