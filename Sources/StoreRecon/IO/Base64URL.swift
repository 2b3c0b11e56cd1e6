/// Base64url decoding (RFC 4648 §5), as JWS uses it.
public enum Base64URL {
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
  public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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

  /// Decodes base64url `text`; see ``decode(_:)-(UnsafeBufferPointer<UInt8>)``.
  public static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { decode($0) }
  }
}
