// Safety: the token given is read within the call only, below its count (a UUID's 36 bytes after
// checking that it has 36), and copied when kept; no precondition beyond the buffer being valid.

extension TokenStore {
  /// Adds a token; returns its number.
  func add(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
    if let (hi, lo, isUpper) = TokenStore.uuid(text) {
      let n = UInt32(truncatingIfNeeded: upper.count)
      uuids.append(hi)
      uuids.append(lo)
      upper.append(isUpper)
      return n | TokenStore.uuidBit
    }
    bytes.append(contentsOf: text)
    ends.append(bytes.count)
    return UInt32(truncatingIfNeeded: ends.count - 1)
  }

  /// The 128 bits of a UUID written in one case, and whether its letters are upper case.
  static func uuid(_ text: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, Bool)? {
    guard text.count == 36 else { return nil }
    var hi: UInt64 = 0
    var lo: UInt64 = 0
    var digits = 0
    var isUpper: Bool?
    for (i, b) in text.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        guard b == 0x2D else { return nil }
        continue
      }
      guard let (value, letterCase) = hexValue(b) else { return nil }
      if let letterCase {
        if let isUpper, isUpper != letterCase { return nil }
        isUpper = letterCase
      }
      if digits < 16 { hi = hi << 4 | value } else { lo = lo << 4 | value }
      digits += 1
    }
    return (hi, lo, isUpper ?? false)
  }
}
