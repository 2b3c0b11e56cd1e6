import Testing

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconPlatform

/// The record of verified signatures (docs/signatures.md#verified-once): a line whose exact bytes passed
/// is not verified again; anything else is, and a record that fails its checks is not trusted.
@Suite struct VerifiedRecordTests {
  typealias J = JWSVerificationTests
  static let macKey = [UInt8](repeating: 7, count: 32)
  static let roots = J.testRootVerifier.rootsFingerprint

  /// "ok" or the rejection of `compact` through `verifier`, and the memo's counts handed to its tally.
  static func check(_ compact: String, _ verifier: JWSVerifier) -> String {
    var text = compact
    let memo = JWSMemo()
    defer { memo.flush() }
    return text.withUTF8 { bytes in
      do throws(RowRejection) {
        _ = try verifier.verifiedPayload(bytes, memo: memo)
        return "ok"
      } catch {
        return error.reason
      }
    }
  }

  /// A verifier for the input `input` using the record in `bytes` (none: an empty one).
  static func verifier(_ bytes: [UInt8]?, input: String = "exports/apple/transactions.jsonl") -> JWSVerifier {
    let (record, distrust) = VerifiedRecord.open(bytes, macKey: macKey, roots: roots)
    #expect(distrust == nil)
    return J.testRootVerifier.recording(record).scoped(to: input)
  }

  /// The record file after `verifier`'s run.
  static func saved(_ verifier: JWSVerifier, over bytes: [UInt8]? = nil) -> [UInt8] {
    let (record, _) = VerifiedRecord.open(bytes, macKey: macKey, roots: roots)
    return record.bytes(adding: verifier.verifiedKeys)
  }

  @Test func aLineVerifiedOnceIsSkippedNextTimeAndOnlyThatLine() {
    let line = J.jws()
    let other = J.jws(payload: J.payload(signedDate: 1_790_000_001_000))
    let first = Self.verifier(nil)
    #expect(Self.check(line, first) == "ok")
    #expect(first.signatureTally.verified == 1)
    #expect(first.signatureTally.known == 0)
    let record = Self.saved(first)
    #expect(record.count == VerifiedRecord.headerSize + 16 + 32)

    let second = Self.verifier(record)
    #expect(Self.check(line, second) == "ok")
    #expect(Self.check(other, second) == "ok")
    // The known line skipped, the new one verified in full and recorded.
    #expect(second.signatureTally.verified == 1)
    #expect(second.signatureTally.known == 1)
    #expect(second.verifiedKeys.count == 1)
    let both = Self.saved(second, over: record)
    #expect(VerifiedRecord.open(both, macKey: Self.macKey, roots: Self.roots).record.count == 2)
    // The same line read from another input is verified in full.
    let elsewhere = Self.verifier(record, input: "exports/apple/older.jsonl")
    #expect(Self.check(line, elsewhere) == "ok")
    #expect(elsewhere.signatureTally.verified == 1)
    #expect(elsewhere.signatureTally.known == 0)
  }

  @Test func aForgedOrAlteredLineIsRejectedOnTheSecondRunAsOnTheFirst() {
    let good = J.jws()
    let parts = good.split(separator: ".").map(String.init)
    var signature = Base64URL.decode(parts[2]) ?? []
    signature[5] ^= 1
    let altered = [parts[0], parts[1], J.b64url(signature)].joined(separator: ".")
    let otherPayload = J.b64url(Array(J.payload(environment: "Sandbox").utf8))
    let forged = [parts[0], otherPayload, parts[2]].joined(separator: ".")
    let expired = J.jws(
      header: J.header(x5c: [TestChain.expiredLeaf, TestChain.intermediate, TestChain.root]),
      payload: J.payload(signedDate: 1_900_000_000_000, purchaseDate: 1_899_000_000_000),
      signer: J.expiredSigner)
    let first = Self.verifier(nil)
    let verdicts = [good, altered, forged, expired].map { Self.check($0, first) }
    #expect(verdicts[0] == "ok")
    #expect(verdicts[1] == "signature")
    #expect(verdicts[2] == "signature")
    #expect(verdicts[3] != "ok")
    // Only the good line is recorded.
    #expect(first.verifiedKeys.count == 1)
    let second = Self.verifier(Self.saved(first))
    let again: [String] = [good, altered, forged, expired].map { Self.check($0, second) }
    #expect(again == verdicts)
    #expect(second.signatureTally.known == 1)
  }

  @Test func aRecordThatFailsItsChecksIsNotTrusted() {
    let first = Self.verifier(nil)
    _ = Self.check(J.jws(), first)
    _ = Self.check(J.jws(payload: J.payload(signedDate: 1_790_000_002_000)), first)
    let good = Self.saved(first)
    func distrust(_ bytes: [UInt8]?, key: [UInt8] = Self.macKey, roots: [UInt8] = Self.roots) -> String? {
      VerifiedRecord.open(bytes, macKey: key, roots: roots).distrust
    }
    #expect(distrust(good) == nil)
    #expect(distrust(nil) == nil)
    // A flipped bit anywhere, a cut, another key, other roots.
    for offset in [0, 10, 20, 50, VerifiedRecord.headerSize + 3, good.count - 1] {
      var damaged = good
      damaged[offset] ^= 0x10
      #expect(distrust(damaged) != nil, "byte \(offset)")
    }
    #expect(distrust(Array(good.dropLast(16)))?.contains("HMAC") == true)
    #expect(distrust(Array(good.prefix(40)))?.contains("cut short") == true)
    #expect(distrust(good, key: [UInt8](repeating: 8, count: 32))?.contains("HMAC") == true)
    let otherRoots = JWSVerifier(mode: .verify).rootsFingerprint
    #expect(distrust(good, roots: otherRoots) == "it was made with other trusted roots")
    // Re-sealed with the right key but another rules version, or keys out of order.
    func resealed(_ edit: (inout [UInt8]) -> Void) -> [UInt8] {
      var body = Array(good.dropLast(32))
      edit(&body)
      return body + HMACSHA256.mac(key: Self.macKey, message: body)
    }
    #expect(distrust(resealed { $0[11] = 9 })?.contains("version 9") == true)
    let keys = VerifiedRecord.headerSize
    #expect(
      distrust(
        resealed { body in
          let a = Array(body[keys..<(keys + 16)])
          body.replaceSubrange(keys..<(keys + 16), with: body[(keys + 16)..<(keys + 32)])
          body.replaceSubrange((keys + 16)..<(keys + 32), with: a)
        }) == "its lines are not in order")
  }

  static func hex(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes {
      let digits = String(byte, radix: 16)
      text += digits.count == 1 ? "0" + digits : digits
    }
    return text
  }

  @Test func hmacMatchesRFC4231() {
    // RFC 4231, test case 2.
    let mac = HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
    #expect(Self.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    // Test case 6: a key longer than the block.
    let long = HMACSHA256.mac(
      key: [UInt8](repeating: 0xAA, count: 131),
      message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
    #expect(Self.hex(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }
}
