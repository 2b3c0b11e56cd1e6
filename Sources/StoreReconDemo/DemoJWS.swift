/// Wraps a decoded Apple payload as a compact JWS (`header.payload.signature`, base64url), as real
/// exports mix signed and decoded transactions. The signature is random bytes: nobody can verify it.
enum DemoJWS {
  /// `{"alg":"ES256","kid":"Apple_Xcode_Key"}`, base64url.
  static let header = encode(Array(#"{"alg":"ES256","kid":"Apple_Xcode_Key"}"#.utf8))

  /// The compact JWS of `payload` with a fake 64-byte signature.
  static func wrap(_ payload: [UInt8], into line: inout DemoLine, _ rng: inout DemoRandom) {
    line.bytes.append(contentsOf: header)
    line.byte(0x2E)
    line.bytes.append(contentsOf: encode(payload))
    line.byte(0x2E)
    var signature = [UInt8]()
    signature.reserveCapacity(64)
    for _ in 0..<8 {
      var word = rng.next()
      for _ in 0..<8 {
        signature.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    line.bytes.append(contentsOf: encode(signature))
  }

  /// Base64url without padding.
  static func encode(_ bytes: [UInt8]) -> [UInt8] {
    let alphabet = DemoIdentifiers.base64URL
    var out = [UInt8]()
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i + 3 <= bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(alphabet[Int(n >> 6 & 63)])
      out.append(alphabet[Int(n & 63)])
      i += 3
    }
    let rest = bytes.count - i
    if rest == 1 {
      let n = UInt32(bytes[i]) << 16
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
    } else if rest == 2 {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(alphabet[Int(n >> 6 & 63)])
    }
    return out
  }
}
