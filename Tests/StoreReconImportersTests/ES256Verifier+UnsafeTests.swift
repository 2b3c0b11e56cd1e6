import Testing
import StoreReconTestSupport

@testable import StoreReconIO
@testable import StoreReconPlatform

/// The reusable per-thread verifier against the one-shot one: the same verdict on good signatures
/// (r and s of every length their DER form takes), on every flipped byte and on zero halves.
@Suite struct ES256VerifierTests {
  @Test func theReusedContextAgreesWithTheOneShotCheck() throws {
    let leaf = JWSVerificationTests.der(TestChain.leaf)
    let key = try #require(leaf.p256PublicKey)
    let verifier = try #require(ES256Verifier(key))
    let signer = JWSVerificationTests.leafSigner
    var shortHalves = 0
    for n in 0..<300 {
      let message = Array("message number \(n)".utf8)
      let signature = signer.sign(message)
      if signature[0] < 0x80 || signature[32] < 0x80 { shortHalves += 1 }
      func both(_ sig: [UInt8], _ msg: [UInt8]) -> (Bool, Bool) {
        msg.withUnsafeBytes { m in
          sig.withUnsafeBytes { s in
            (verifier.verify(message: m, signature: s), key.verify(message: m, signature: s))
          }
        }
      }
      #expect(both(signature, message) == (true, true))
      var tampered = signature
      tampered[n % 64] ^= 0x01
      #expect(both(tampered, message) == (false, false))
      #expect(both(signature, message + [0x21]) == (false, false))
    }
    #expect(shortHalves > 100)  // both DER forms (with and without a leading 0x00) were exercised
    let zeros = [UInt8](repeating: 0, count: 64)
    #expect(
      zeros.withUnsafeBytes {
        verifier.verify(message: UnsafeRawBufferPointer(start: nil, count: 0), signature: $0)
      } == false)
  }

  @Test func derOfLeadingZeroHalvesIsMinimal() {
    var raw = [UInt8](repeating: 0, count: 64)
    raw[31] = 0x05  // r = 5
    raw[32] = 0x80  // s has its high bit set: a 0x00 in front
    var out = [UInt8](repeating: 0, count: 72)
    let n = raw.withUnsafeBufferPointer { r in
      out.withUnsafeMutableBufferPointer { o in
        guard let rb = r.baseAddress, let ob = o.baseAddress else { return 0 }
        return ES256Verifier.der(rb, into: ob)
      }
    }
    #expect(
      Array(out[0..<n]) == [0x30, 2 + 1 + 2 + 33, 0x02, 0x01, 0x05, 0x02, 33, 0x00, 0x80]
        + Array(repeating: 0, count: 31))
  }
}
