import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconPlatform

/// App Store JWS verification (docs/signatures.md): each forgery the issue lists is rejected with its
/// reason, Apple's own sample fails the pinned root and passes with its root as the test root, and the
/// importers count and reject unverified lines by `appStore.signatures`.
@Suite struct JWSVerificationTests {
  static func der(_ base64: String) -> X509Certificate {
    guard let bytes = Base64URL.decode(base64), let certificate = X509Certificate(der: bytes) else {
      preconditionFailure("test certificate does not parse")
    }
    return certificate
  }

  static func signer(_ hex: String) -> ES256TestSigner {
    var bytes: [UInt8] = []
    var rest = Substring(hex)
    while rest.count >= 2, let byte = UInt8(rest.prefix(2), radix: 16) {
      bytes.append(byte)
      rest = rest.dropFirst(2)
    }
    guard let signer = ES256TestSigner(privateScalar: bytes) else { preconditionFailure("bad test scalar") }
    return signer
  }

  static func b64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  static let leafSigner = signer(TestChain.leafScalar)
  static let expiredSigner = signer(TestChain.expiredLeafScalar)
  static let goodChain = [TestChain.leaf, TestChain.intermediate, TestChain.root]

  /// `{"alg":alg,"x5c":[…]}`.
  static func header(alg: String = "ES256", x5c: [String]? = goodChain) -> String {
    guard let x5c else { return #"{"alg":"\#(alg)"}"# }
    return #"{"alg":"\#(alg)","x5c":[\#(x5c.map { "\"\($0)\"" }.joined(separator: ","))]}"#
  }

  /// A transaction payload bought at `purchaseDate` and signed at `signedDate` (ms).
  static func payload(
    signedDate: Int64 = 1_790_000_000_000, purchaseDate: Int64 = 1_789_999_000_000,
    environment: String = "Production"
  ) -> String {
    #"{"transactionId":"t1","originalTransactionId":"o1","productId":"pro","purchaseDate":\#(purchaseDate),"#
      + #""price":4990,"currency":"USD","environment":"\#(environment)","signedDate":\#(signedDate)}"#
  }

  /// The compact JWS of `header` and `payload`, signed by `signer`.
  static func jws(
    header: String = header(), payload: String = payload(), signer: ES256TestSigner = leafSigner
  )
    -> String
  {
    let signed = b64url(Array(header.utf8)) + "." + b64url(Array(payload.utf8))
    return signed + "." + b64url(signer.sign(Array(signed.utf8)))
  }

  static let testRootVerifier = JWSVerifier(mode: .verify, testRoots: [der(TestChain.root)])

  /// "ok" when `compact` verifies, else the reason it is rejected.
  static func outcome(_ compact: String, _ verifier: JWSVerifier = testRootVerifier) -> String {
    var text = compact
    return text.withUTF8 { bytes in
      do throws(RowRejection) {
        _ = try verifier.verifiedPayload(bytes, memo: JWSMemo())
        return "ok"
      } catch {
        return error.reason
      }
    }
  }

  @Test func aGoodChainVerifiesOnlyWithItsRootTrusted() {
    #expect(Self.outcome(Self.jws()) == "ok")
    #expect(
      Self.outcome(Self.jws(), JWSVerifier()) == "untrusted chain: unable to get local issuer certificate")
  }

  @Test func aTamperedPayloadFailsTheSignature() {
    let good = Self.jws().split(separator: ".").map(String.init)
    let other = Self.b64url(Array(Self.payload(environment: "Sandbox").utf8))
    #expect(Self.outcome([good[0], other, good[2]].joined(separator: ".")) == "signature")
    // A flipped signature byte, and a signature of the wrong length.
    var signature = Base64URL.decode(good[2]) ?? []
    signature[10] ^= 1
    #expect(Self.outcome([good[0], good[1], Self.b64url(signature)].joined(separator: ".")) == "signature")
    #expect(Self.outcome([good[0], good[1], "c2lnbmF0dXJl"].joined(separator: ".")) == "signature")
  }

  @Test func aSwappedX5cFailsTheSignature() {
    // Signed by another key (the expired leaf's) under the good chain's x5c; and a good JWS whose x5c
    // is replaced afterwards by another chain (the signature covers the header).
    #expect(Self.outcome(Self.jws(signer: Self.expiredSigner)) == "signature")
    let good = Self.jws().split(separator: ".").map(String.init)
    let swapped = Self.header(x5c: [TestChain.expiredLeaf, TestChain.intermediate, TestChain.root])
    let forged = [Self.b64url(Array(swapped.utf8)), good[1], good[2]].joined(separator: ".")
    #expect(Self.outcome(forged) == "signature")
  }

  @Test func algNoneAndHS256AreRejected() {
    let none = Self.b64url(Array(Self.header(alg: "none", x5c: nil).utf8))
    let body = Self.b64url(Array(Self.payload().utf8))
    #expect(Self.outcome(none + "." + body + ".") == "alg none")
    #expect(Self.outcome(none + "." + body + ".c2lnbmF0dXJl") == "alg none")
    #expect(Self.outcome(Self.jws(header: Self.header(alg: "HS256"))) == "alg HS256 is not ES256")
    #expect(Self.outcome(Self.jws(header: #"{"x5c":[]}"#)) == "alg missing")
    #expect(Self.outcome(Self.jws(header: Self.header(x5c: nil))) == "untrusted chain: no x5c")
  }

  @Test func aLeafExpiredAtSignedDateIsRejectedAndValidBeforeItsExpiry() {
    let chain = Self.header(x5c: [TestChain.expiredLeaf, TestChain.intermediate, TestChain.root])
    let late = Self.jws(
      header: chain, payload: Self.payload(signedDate: 1_790_000_000_000), signer: Self.expiredSigner)
    #expect(Self.outcome(late) == "certificate expired at signedDate")
    // A 2020 purchase signed in 2020 while the leaf was valid: still valid today, as Apple's own
    // libraries judge it.
    let early = Self.jws(
      header: chain, payload: Self.payload(signedDate: 1_590_000_000_000, purchaseDate: 1_589_999_000_000),
      signer: Self.expiredSigner)
    #expect(Self.outcome(early) == "ok")
    let before = Self.jws(
      payload: Self.payload(signedDate: 1_500_000_000_000, purchaseDate: 1_499_999_000_000))
    #expect(Self.outcome(before) == "certificate not yet valid at signedDate")
    let undated = Self.jws(payload: #"{"transactionId":"t1"}"#)
    #expect(Self.outcome(undated) == "JWS payload has no signedDate")
  }

  /// Issue 32: an expired leaf signs a 2026 purchase with a 2020 `signedDate`, inside its validity. No
  /// real transaction is signed before it is bought: rejected, with both dates.
  @Test func aSignedDateBeforeThePurchaseIsRejected() {
    let chain = Self.header(x5c: [TestChain.expiredLeaf, TestChain.intermediate, TestChain.root])
    let backdated = Self.jws(
      header: chain, payload: Self.payload(signedDate: 1_590_000_000_000), signer: Self.expiredSigner)
    #expect(
      Self.outcome(backdated)
        == "signedDate 2020-05-20T18:40:00.000Z is before purchaseDate 2026-09-21T13:56:40.000Z")
    // One millisecond before the purchase is as impossible; the same instant is not.
    let justBefore = Self.jws(payload: Self.payload(signedDate: 1_789_998_999_999))
    #expect(Self.outcome(justBefore).hasPrefix("signedDate 2026-09-21T13:56:39.999Z is before purchaseDate"))
    #expect(Self.outcome(Self.jws(payload: Self.payload(signedDate: 1_789_999_000_000))) == "ok")
    // A payload that is no transaction (no purchaseDate) has nothing to be bounded by.
    let notification = Self.jws(payload: #"{"notificationType":"TEST","signedDate":1790000000000}"#)
    #expect(Self.outcome(notification) == "ok")
  }

  @Test func aChainToALookAlikeRootIsRejected() {
    // The intermediate re-signed by a root with the test root's name and another key.
    let lookalike = Self.header(x5c: [
      TestChain.leaf, TestChain.lookalikeIntermediate, TestChain.lookalikeRoot,
    ])
    #expect(
      Self.outcome(Self.jws(header: lookalike)) == "untrusted chain: unable to get local issuer certificate")
    // The right intermediate, but the x5c's root is the look-alike: the chain must end in the x5c's root.
    let wrongRoot = Self.header(x5c: [TestChain.leaf, TestChain.intermediate, TestChain.lookalikeRoot])
    #expect(
      Self.outcome(Self.jws(header: wrongRoot)) == "untrusted chain: the chain's root is not a trusted root")
    // The look-alike trusted instead: the real chain does not verify.
    let other = JWSVerifier(mode: .verify, testRoots: [Self.der(TestChain.lookalikeRoot)])
    #expect(Self.outcome(Self.jws(), other) == "untrusted chain: unable to get local issuer certificate")
  }

  @Test func theMarkerOIDsAreRequired() {
    let plainIntermediate = Self.header(x5c: [TestChain.leaf, TestChain.plainIntermediate, TestChain.root])
    #expect(
      Self.outcome(Self.jws(header: plainIntermediate))
        == "untrusted chain: the intermediate lacks Apple's WWDR marker OID")
    let plainLeaf = Self.header(x5c: [TestChain.plainLeaf, TestChain.intermediate, TestChain.root])
    #expect(
      Self.outcome(Self.jws(header: plainLeaf))
        == "untrusted chain: the leaf lacks Apple's receipt-signing OID")
    let two = Self.header(x5c: [TestChain.intermediate, TestChain.root])
    #expect(Self.outcome(Self.jws(header: two)) == "untrusted chain: x5c has 2 certificates, expected 3")
  }

  @Test func eachDistinctChainIsVerifiedOnce() {
    let verifier = JWSVerifier(mode: .verify, testRoots: [Self.der(TestChain.root)])
    for signedDate in [1_790_000_000_000, 1_790_000_000_001, 1_790_000_000_002] as [Int64] {
      #expect(Self.outcome(Self.jws(payload: Self.payload(signedDate: signedDate)), verifier) == "ok")
    }
    #expect(verifier.chainsVerified == 1)
    let other = Self.header(x5c: [TestChain.expiredLeaf, TestChain.intermediate, TestChain.root])
    _ = Self.outcome(Self.jws(header: other, signer: Self.expiredSigner), verifier)
    #expect(verifier.chainsVerified == 2)
  }

  @Test func thePinnedRootIsAppleRootCAG3() {
    let root = JWSVerifier.pinnedRoot
    #expect(
      SHA256Digest.hex(of: root.der) == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    #expect(root.subject == "/CN=Apple Root CA - G3/OU=Apple Certification Authority/O=Apple Inc./C=US")
    #expect(root.notAfter == 2_187_800_346)  // 2039-04-30 18:19:06 UTC
  }
}
