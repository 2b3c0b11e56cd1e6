import Testing

@testable import StoreReconPlatform

/// The DER ↔ raw conversions the ES256 signer and verifier share: every `r‖s` survives the round trip,
/// short halves included, and what is not a DER signature gives none.
@Suite struct ES256SignatureFormTests {
  @Test func rawToDERAndBackIsTheIdentity() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for n in 0..<200 {
      var raw = [UInt8](repeating: 0, count: 64)
      for i in 0..<64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        raw[i] = UInt8(truncatingIfNeeded: state >> 33)
      }
      if n % 3 == 0 { raw[0] = 0 }  // a short r
      if n % 5 == 0 { raw[32] = 0x80 }  // an s with its high bit set (a leading 0x00 in DER)
      raw[31] |= 1
      raw[63] |= 1
      let der = try #require(raw.withUnsafeBytes { ES256PublicKey.der(rawSignature: $0) })
      #expect(ES256PublicKey.raw(derSignature: der) == raw)
    }
    #expect(ES256PublicKey.raw(derSignature: [0x30, 0x02, 0x05, 0x00]) == nil)
    #expect(ES256PublicKey.raw(derSignature: []) == nil)
  }

  @Test func aPEMThatIsNotAP256PrivateKeyIsRefused() {
    #expect(throws: ES256Signer.KeyError.notAPrivateKey) { try ES256Signer(pem: Array("not a key".utf8)) }
  }
}
