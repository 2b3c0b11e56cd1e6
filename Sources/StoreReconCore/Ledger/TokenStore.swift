/// Account tokens (Apple `appAccountToken`, Play obfuscated account ids), one per chain at most.
///
/// A UUID written in one case (`c9ca70cb-1314-4494-a3f3-b1d18c20d85e`) is kept as its 16 bytes; any
/// other token as text. Numbers with the top bit set are UUIDs. Tokens are only added, never looked up
/// by text, so there is no index.
final class TokenStore: @unchecked Sendable {
  // Written only by ``add(_:)`` (TokenStore+UnsafeBytes.swift).
  var uuids: [UInt64] = []
  var upper: [Bool] = []
  var bytes: [UInt8] = []
  var ends: [Int] = []

  init() {}

  static let uuidBit: UInt32 = 1 << 31

  /// Token `n` as text.
  func string(_ n: UInt32) -> String {
    if n & TokenStore.uuidBit != 0 {
      let i = Int(n & ~TokenStore.uuidBit)
      return TokenStore.uuidText(uuids[2 * i], uuids[2 * i + 1], upper: upper[i])
    }
    let i = Int(n)
    let start = i == 0 ? 0 : ends[i - 1]
    return String(decoding: bytes[start..<ends[i]], as: UTF8.self)
  }

  @inline(__always)
  static func hexValue(_ b: UInt8) -> (value: UInt64, upper: Bool?)? {
    switch b {
    case 0x30...0x39: return (UInt64(b - 0x30), nil)
    case 0x61...0x66: return (UInt64(b - 0x61 + 10), false)
    case 0x41...0x46: return (UInt64(b - 0x41 + 10), true)
    default: return nil
    }
  }

  static func uuidText(_ hi: UInt64, _ lo: UInt64, upper: Bool) -> String {
    let digits: [UInt8] = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
    var out = [UInt8]()
    out.reserveCapacity(36)
    for k in 0..<32 {
      if k == 8 || k == 12 || k == 16 || k == 20 { out.append(0x2D) }
      let word = k < 16 ? hi : lo
      let shift = UInt64(60 - 4 * (k % 16))
      out.append(digits[Int((word >> shift) & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
