import StoreReconCore
package import StoreReconPlatform

/// What the run does with the signatures of App Store JWS lines (`appStore.signatures`, docs/signatures.md).
package enum SignatureMode: String, Sendable, CaseIterable {
  /// Every JWS must verify; decoded JSON lines are accepted and counted as unverified (a team whose
  /// exports are decoded says so in its config).
  case verify
  /// As `verify`, and decoded JSON lines (no signature at all) are rejected: the run's default.
  case require
  /// Nothing is verified (said on every run); every line counts as unverified.
  case off
}

/// The chain of one `x5c` header once verified: the leaf's key and the span in which all three
/// certificates are valid (seconds since 1970), which a JWS's `signedDate` must fall in.
package final class VerifiedChain: Sendable {
  let key: ES256PublicKey
  let notBefore: Int64
  let notAfter: Int64

  init(key: ES256PublicKey, notBefore: Int64, notAfter: Int64) {
    self.key = key
    self.notBefore = notBefore
    self.notAfter = notAfter
  }
}

/// What a JWS header decides for every JWS that carries it: the chain to check the signature with, or
/// why each is rejected.
enum HeaderVerdict {
  case chain(VerifiedChain)
  case rejected(String)
}

/// Verifies compact App Store JWSs: `alg` ES256, the `x5c` chain leaf → intermediate → a trusted root
/// (Apple Root CA - G3, pinned, plus the test roots a config names), Apple's marker OIDs on the
/// intermediate and the leaf, each certificate valid at the payload's `signedDate`, and the ES256
/// signature over `header.payload`.
///
/// One verifier serves a whole run on all threads: each distinct chain (by the SHA-256 of its
/// certificates) is verified once, under a lock; the signature is checked per JWS.
package final class JWSVerifier: @unchecked Sendable {
  package let mode: SignatureMode
  /// The trust anchors: the pinned Apple root, then any test roots.
  let roots: [X509Certificate]
  /// Whether a test root is trusted besides the pinned one (the run says so loudly).
  package let trustsTestRoot: Bool
  /// What the verifiers of one run share: the chains' verdicts and the tally of signatures.
  let shared: VerifierShared
  /// The lines earlier runs verified (docs/signatures.md#verified-once); `nil`: every line is verified.
  package let record: VerifiedRecord?
  /// SHA-256 of the name of the input this verifier reads (``scoped(to:)``), part of each line's key in
  /// the record: a line of an input the record does not know is verified in full.
  let scope: [UInt8]

  /// Apple Root CA - G3 from ``AppleRootCAG3``, checked against its pinned SHA-256 once.
  package static let pinnedRoot: X509Certificate = {
    guard let der = Base64URL.decode(AppleRootCAG3.base64), let root = X509Certificate(der: der) else {
      preconditionFailure("JWSVerifier: the pinned Apple root does not parse")
    }
    precondition(
      SHA256Digest.hex(of: der) == AppleRootCAG3.sha256, "JWSVerifier: the pinned Apple root changed")
    return root
  }()

  /// A verifier in `mode` trusting the pinned Apple root and `testRoots`.
  package init(mode: SignatureMode = .verify, testRoots: [X509Certificate] = []) {
    self.mode = mode
    roots = [JWSVerifier.pinnedRoot] + testRoots
    trustsTestRoot = !testRoots.isEmpty
    shared = VerifierShared()
    record = nil
    scope = []
  }

  private init(_ other: JWSVerifier, record: VerifiedRecord?, scope: [UInt8], shared: VerifierShared) {
    mode = other.mode
    roots = other.roots
    trustsTestRoot = other.trustsTestRoot
    self.shared = shared
    self.record = record
    self.scope = scope
  }

  /// This verifier, skipping the lines `record` holds and noting the lines it verifies for the next
  /// record (a fresh tally). The record must have been made for this verifier's roots.
  package func recording(_ record: VerifiedRecord) -> JWSVerifier {
    precondition(record.roots == rootsFingerprint, "JWSVerifier.recording: a record of other roots")
    return JWSVerifier(self, record: record, scope: [], shared: VerifierShared())
  }

  /// The verifier for the input named `input`: the same roots, record and tally, with the input's name
  /// in each line's key.
  package func scoped(to input: String) -> JWSVerifier {
    JWSVerifier(self, record: record, scope: SHA256Digest.bytes(of: Array(input.utf8)), shared: shared)
  }

  /// The fingerprint of the trusted roots: SHA-256 over each root's length and DER, in order.
  package var rootsFingerprint: [UInt8] { JWSVerifier.chainKey(roots.map(\.der)) }

  /// Distinct chains verified so far (each once per run).
  package var chainsVerified: Int { shared.lock.locked { shared.chainCount } }

  /// Signatures verified in full so far, and lines skipped because the record holds them (counted as
  /// each packer finishes).
  package var signatureTally: (verified: Int, known: Int) {
    shared.lock.locked { (shared.signaturesVerified, shared.signaturesKnown) }
  }

  /// The keys of the lines verified in full so far, for the next record.
  package var verifiedKeys: [VerifiedRecord.Key] { shared.lock.locked { shared.fresh } }

  /// The verdict of a JWS header (decoded JSON bytes).
  func verdict(header: [UInt8]) -> HeaderVerdict {
    let value: JSONValue
    do {
      value = try JSONParser.parse(header)
    } catch {
      return .rejected("JWS header is not JSON")
    }
    guard let alg = value["alg"]?.stringValue else { return .rejected("alg missing") }
    guard alg == "ES256" else {
      return .rejected(alg.lowercased() == "none" ? "alg none" : "alg \(RawText.truncated(alg)) is not ES256")
    }
    guard let x5c = value["x5c"]?.arrayValue else { return .rejected("untrusted chain: no x5c") }
    var ders: [[UInt8]] = []
    for item in x5c {
      guard let text = item.stringValue, let der = Base64URL.decode(text) else {
        return .rejected("untrusted chain: an x5c entry is not base64")
      }
      ders.append(der)
    }
    guard ders.count == 3 else {
      return .rejected("untrusted chain: x5c has \(ders.count) certificates, expected 3")
    }
    let key = JWSVerifier.chainKey(ders)
    return shared.lock.locked {
      if let known = shared.chains[key] { return known }
      let verdict = JWSVerifier.verdict(chain: ders, roots: roots)
      shared.chains[key] = verdict
      shared.chainCount += 1
      return verdict
    }
  }

  /// The verdict of the DER certificates leaf, intermediate, root against `roots`.
  static func verdict(chain ders: [[UInt8]], roots: [X509Certificate]) -> HeaderVerdict {
    let certificates = ders.compactMap { X509Certificate(der: $0) }
    guard certificates.count == 3 else {
      return .rejected("untrusted chain: an x5c certificate does not parse")
    }
    let leaf = certificates[0]
    let intermediate = certificates[1]
    if let failure = X509ChainCheck.failure(chain: certificates, roots: roots) {
      return .rejected("untrusted chain: \(failure)")
    }
    guard intermediate.hasExtension(oid: AppleRootCAG3.intermediateMarkerOID) else {
      return .rejected("untrusted chain: the intermediate lacks Apple's WWDR marker OID")
    }
    guard leaf.hasExtension(oid: AppleRootCAG3.receiptSigningOID) else {
      return .rejected("untrusted chain: the leaf lacks Apple's receipt-signing OID")
    }
    guard let key = leaf.p256PublicKey else { return .rejected("untrusted chain: the leaf key is not P-256") }
    // The x5c's root is the trusted root the chain check ended in: its dates are that root's.
    let notBefore = certificates.map(\.notBefore).max() ?? 0
    let notAfter = certificates.map(\.notAfter).min() ?? 0
    return .chain(VerifiedChain(key: key, notBefore: notBefore, notAfter: notAfter))
  }

  /// Why a JWS signed at `signedDate` (milliseconds) may not use `chain`, or `nil` when it may.
  static func timeFailure(_ chain: VerifiedChain, signedDate ms: Int64) -> String? {
    let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
    if seconds > chain.notAfter { return "certificate expired at signedDate" }
    if seconds < chain.notBefore { return "certificate not yet valid at signedDate" }
    return nil
  }

  /// Why a transaction signed at `signedDate` cannot be real, or `nil`: Apple signs a transaction when
  /// it answers for it, never before its `purchaseDate` (docs/signatures.md#what-is-checked). A leaf
  /// that signed a purchase with a date inside its validity, years before the purchase, is caught here.
  static func orderFailure(signedDate: Int64, purchaseDate: Int64?) -> String? {
    guard let purchaseDate, signedDate < purchaseDate else { return nil }
    return "signedDate \(Instant(ms: signedDate)) is before purchaseDate \(Instant(ms: purchaseDate))"
  }
}

/// A packer's own memo of the last few JWS header verdicts (by the header's base64url text, compared
/// byte for byte: a header with its chain is a few kilobytes, cheaper to compare than to hash), so that
/// lines with a header it saw lately skip decoding the `x5c` and the verifier's lock. Not shared
/// between threads.
package final class JWSMemo {
  var headers: [[UInt8]] = []
  var verdicts: [HeaderVerdict] = []
  /// Per kept header with a chain: this thread's verifier for its leaf key, made on first use.
  var verifiers: [ES256Verifier?] = []
  /// The tally this memo's counts go to when it goes away (the verifier's it first served).
  var tally: VerifierShared?
  var verified = 0
  var known = 0
  /// The record keys of the lines verified in full.
  var fresh: [VerifiedRecord.Key] = []

  /// An empty memo.
  package init() {}

  deinit { flush() }

  /// Hands the counts and keys over to the run's tally.
  func flush() {
    guard let tally, verified > 0 || known > 0 else { return }
    tally.lock.locked {
      tally.signaturesVerified += verified
      tally.signaturesKnown += known
      tally.fresh += fresh
    }
    (verified, known) = (0, 0)
    fresh.removeAll()
  }
}

/// What the verifiers of one run share (``JWSVerifier/scoped(to:)``): each chain's verdict, and the
/// tally of signatures the packers' memos hand over.
final class VerifierShared: @unchecked Sendable {
  let lock = Lock()
  var chains: [[UInt8]: HeaderVerdict] = [:]
  var chainCount = 0
  var signaturesVerified = 0
  var signaturesKnown = 0
  var fresh: [VerifiedRecord.Key] = []
}
