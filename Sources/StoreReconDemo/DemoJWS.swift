import StoreReconPlatform

/// Wraps a decoded Apple payload as a compact JWS (`header.payload.signature`, base64url), as real
/// exports mix signed and decoded transactions. Signed for real (ES256) by the leaf of
/// ``DemoTestChain``, whose chain the header carries in `x5c`: it verifies when the run trusts the demo's
/// test root (its config names it), and fails Apple's pinned root otherwise. The signature is
/// deterministic, so a seeded world is byte-identical.
enum DemoJWS {
  /// `{"alg":"ES256","x5c":[leaf, intermediate, root]}`, base64url.
  static let header: [UInt8] = {
    let chain = DemoTestChain.x5c.map { "\"\($0)\"" }.joined(separator: ",")
    return encode(Array("{\"alg\":\"ES256\",\"x5c\":[\(chain)]}".utf8))
  }()

  /// The leaf's signer.
  static let signer: ES256TestSigner = {
    var scalar: [UInt8] = []
    var digits = Array(DemoTestChain.leafScalar.utf8)[...]
    while digits.count >= 2, let byte = UInt8(String(decoding: digits.prefix(2), as: UTF8.self), radix: 16) {
      scalar.append(byte)
      digits = digits.dropFirst(2)
    }
    guard let signer = ES256TestSigner(privateScalar: scalar) else {
      preconditionFailure("DemoJWS: the test leaf's scalar is not a P-256 private key")
    }
    return signer
  }()

  /// The compact JWS of `payload`, signed by the test leaf.
  static func wrap(_ payload: [UInt8], into line: inout DemoLine, _ rng: inout DemoRandom) {
    let start = line.bytes.count
    line.bytes.append(contentsOf: header)
    line.byte(0x2E)
    line.bytes.append(contentsOf: encode(payload))
    let signature = signer.sign(Array(line.bytes[start...]))
    line.byte(0x2E)
    line.bytes.append(contentsOf: encode(signature))
    // The eight words the made-up signature once took: drawn still, so that the world's other random
    // choices stay what they were.
    for _ in 0..<8 { _ = rng.next() }
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

/// Signs payloads as the demo world signs its JWS lines (the leaf of ``DemoTestChain``, its chain in
/// `x5c`), for tests that serve signed store data: a run that trusts the demo's test root verifies them.
package enum DemoSigner {
  /// The compact JWS (`header.payload.signature`) of `payload`.
  package static func jws(_ payload: [UInt8]) -> String {
    var signingInput = DemoJWS.header
    signingInput.append(0x2E)
    signingInput.append(contentsOf: DemoJWS.encode(payload))
    let signature = DemoJWS.signer.sign(signingInput)
    return String(decoding: signingInput + [0x2E] + DemoJWS.encode(signature), as: UTF8.self)
  }
}
