// Safety: `bytes` is read within its count; the output buffer is reserved for `n / 4 * 3 + (n % 4 - 1)`
// bytes, exactly what the letters decode to, before anything is written; the returned buffer is valid until
// `output` is next used.

import StoreReconPlatform

/// Base64url decoding (RFC 4648 §5), as JWS uses it.
package enum Base64URL {
  private static let table: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    table[Int(UInt8(ascii: "-"))] = 62
    table[Int(UInt8(ascii: "_"))] = 63
    table[Int(UInt8(ascii: "+"))] = 62  // standard base64, tolerated
    table[Int(UInt8(ascii: "/"))] = 63
    return table
  }()

  /// Decodes base64url text (padding optional; `+` and `/` tolerated); `nil` when it is not base64.
  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var n = bytes.count
    while n > 0 && bytes[n - 1] == 0x3D { n -= 1 }
    guard n % 4 != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(n * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for i in 0..<n {
      let value = table[Int(bytes[i])]
      guard value != 0xFF else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    return output
  }

  /// Decodes base64url text (as ``decode(_:)-(UnsafeBufferPointer<UInt8>)``) into `output` (grown as
  /// needed), four letters at a time; the decoded bytes, or `nil` when it is not base64. The bytes stay
  /// valid until `output` is next used.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into output: GrowableBuffer<UInt8>)
    -> UnsafeBufferPointer<UInt8>?
  {
    var n = bytes.count
    while n > 0 && bytes[n - 1] == 0x3D { n -= 1 }
    guard n % 4 != 1 else { return nil }
    let produced = n / 4 * 3 + max(0, n % 4 - 1)
    output.reserve(max(produced, 1))
    guard let out = output.base, let input = bytes.baseAddress else {
      return n == 0 ? UnsafeBufferPointer(start: output.base, count: 0) : nil
    }
    return table.withUnsafeBufferPointer { t -> UnsafeBufferPointer<UInt8>? in
      @inline(__always) func letter(_ i: Int) -> UInt32 { UInt32(t[Int(input[i])]) }
      var i = 0
      var o = 0
      let whole = n & ~3
      while i < whole {
        let a = letter(i)
        let b = letter(i + 1)
        let c = letter(i + 2)
        let d = letter(i + 3)
        guard (a | b | c | d) & 0x80 == 0 else { return nil }
        let v = a << 18 | b << 12 | c << 6 | d
        out[o] = UInt8(truncatingIfNeeded: v >> 16)
        out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
        out[o + 2] = UInt8(truncatingIfNeeded: v)
        i += 4
        o += 3
      }
      switch n - whole {
      case 2:
        let a = letter(i)
        let b = letter(i + 1)
        guard (a | b) & 0x80 == 0 else { return nil }
        out[o] = UInt8(truncatingIfNeeded: (a << 6 | b) >> 4)
        o += 1
      case 3:
        let a = letter(i)
        let b = letter(i + 1)
        let c = letter(i + 2)
        guard (a | b | c) & 0x80 == 0 else { return nil }
        let v = a << 12 | b << 6 | c
        out[o] = UInt8(truncatingIfNeeded: v >> 10)
        out[o + 1] = UInt8(truncatingIfNeeded: v >> 2)
        o += 2
      default:
        break
      }
      return UnsafeBufferPointer(start: out, count: o)
    }
  }

  /// Decodes base64url `text`; see ``decode(_:)-(UnsafeBufferPointer<UInt8>)``.
  package static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { decode($0) }
  }
}
