import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconPlatform

/// Signatures as the App Store importer applies them: Apple's sample notification, the modes of
/// `appStore.signatures`, the unverified count, JWS inside wrappers, and Xcode transactions as sandbox.
@Suite struct JWSImportTests {
  typealias T = JWSVerificationTests

  @Test func applesSampleNotificationFailsThePinnedRootAndPassesWithItsOwn() throws {
    let path = Samples.path("apple-jws/mock-testNotification.jws")
    guard FileManager.default.fileExists(atPath: path) else {
      print("skipped: \(path) is absent (../shared/samples)")
      return
    }
    let compact = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let header = try JSONParser.parse(try #require(Base64URL.decode(String(compact.prefix { $0 != "." }))))
    let entries = header["x5c"]?.arrayValue ?? []
    let x5c = entries.compactMap { $0.stringValue }
    #expect(x5c.count == 3)
    #expect(T.outcome(compact, JWSVerifier()) == "untrusted chain: unable to get local issuer certificate")
    let own = JWSVerifier(mode: .verify, testRoots: [T.der(x5c[2])])
    #expect(T.outcome(compact, own) == "ok")
    #expect(
      T.outcome(compact, T.testRootVerifier) == "untrusted chain: unable to get local issuer certificate")
    // Its payload, as verified: the TEST notification of 2023-04-12.
    var text = compact
    let payload = try text.withUTF8 { try own.verifiedPayload($0, memo: JWSMemo()) }
    #expect(try JSONParser.parse(payload)["notificationType"]?.stringValue == "TEST")
    #expect(try JSONParser.parse(payload)["signedDate"]?.int64Value == 1_681_314_324_000)
  }

  /// The lines of one file: a decoded transaction, a signed one, a forged one (alg none), a signed one
  /// in `signedTransactionInfo`, a forged one there (HS256), an Xcode one signed.
  static func lines() -> [String] {
    let none =
      T.b64url(Array(T.header(alg: "none", x5c: nil).utf8)) + "."
      + T.b64url(Array(T.payload().replacingOccurrences(of: "t1", with: "t3").utf8)) + "."
    let hs256 = T.jws(
      header: T.header(alg: "HS256"), payload: T.payload().replacingOccurrences(of: "t1", with: "t5"))
    return [
      T.payload().replacingOccurrences(of: "t1", with: "t0"),
      T.jws(),
      none,
      #"{"signedTransactionInfo":""# + T.jws(payload: T.payload().replacingOccurrences(of: "t1", with: "t4"))
        + #""}"#,
      #"{"signedTransactionInfo":""# + hs256 + #""}"#,
      T.jws(payload: T.payload(environment: "Xcode").replacingOccurrences(of: "t1", with: "t6")),
    ]
  }

  func sequential(_ mode: SignatureMode) throws -> ImportResult<StoreTransaction> {
    let dir = try TempDir()
    let path = try dir.write("apple.jsonl", Self.lines().joined(separator: "\n") + "\n")
    let verifier = JWSVerifier(mode: mode, testRoots: [T.der(TestChain.root)])
    return try runImporter(AppStoreTransactionImporter(verifier: verifier), path, name: "apple.jsonl")
  }

  func packed(_ mode: SignatureMode) throws -> (PackedImport, [Reject]) {
    let dir = try TempDir()
    let path = try dir.write("apple.jsonl", Self.lines().joined(separator: "\n") + "\n")
    let verifier = JWSVerifier(mode: mode, testRoots: [T.der(TestChain.root)])
    let sink = RejectList()
    let result = try AppStoreTransactionImporter(verifier: verifier).read(
      path: path, displayName: "apple.jsonl", rejects: sink, into: LedgerBuilder(), chunkBytes: 600,
      threads: 2)
    return (result, sink.rejects)
  }

  @Test func verifyAcceptsDecodedLinesAsUnverifiedAndRejectsForgeries() throws {
    let result = try sequential(.verify)
    #expect(result.rows.map(\.transactionId) == ["t0", "t1", "t4", "t6"])
    #expect(result.rejects.map(\.line) == [3, 5])
    #expect(
      result.rejects.map(\.reason) == [
        "alg none", "signedTransactionInfo is not a valid JWS: alg HS256 is not ES256",
      ])
    let (packed, rejects) = try packed(.verify)
    #expect(packed.counts == InputCounts(read: 6, accepted: 4, rejected: 2))
    #expect(packed.unverified == 1)
    #expect(
      rejects.map(\.reason) == [
        "alg none", "signedTransactionInfo is not a valid JWS: alg HS256 is not ES256",
      ])
  }

  @Test func requireRejectsDecodedLinesToo() throws {
    let result = try sequential(.require)
    #expect(result.rows.map(\.transactionId) == ["t1", "t4", "t6"])
    #expect(result.rejects.map(\.line) == [1, 3, 5])
    #expect(result.rejects.first?.reason == "unsigned line (appStore.signatures is require)")
    let (packed, rejects) = try packed(.require)
    #expect(packed.counts == InputCounts(read: 6, accepted: 3, rejected: 3))
    #expect(packed.unverified == 0)
    #expect(rejects.map(\.line) == [1, 3, 5])
  }

  @Test func offAcceptsEverythingAsUnverified() throws {
    let result = try sequential(.off)
    #expect(result.rows.map(\.transactionId) == ["t0", "t1", "t3", "t4", "t5", "t6"])
    let (packed, _) = try packed(.off)
    #expect(packed.counts == InputCounts(read: 6, accepted: 6, rejected: 0))
    #expect(packed.unverified == 6)
  }

  @Test func xcodeTransactionsAreSandboxOnBothPaths() throws {
    let result = try sequential(.verify)
    #expect(result.rows.map(\.environment) == [.production, .production, .production, .sandbox])
    // The fast path (a decoded line) and the full path (a wrapper) give the same.
    let xcode = T.payload(environment: "Xcode")
    let dir = try TempDir()
    let path = try dir.write(
      "apple.jsonl", xcode + "\n" + #"{"signedTransactionInfo":""# + T.jws(payload: xcode) + #""}"# + "\n")
    let both = try runImporter(AppStoreTransactionImporter(verifier: T.testRootVerifier), path)
    #expect(both.rows.map(\.environment) == [.sandbox, .sandbox])
  }
}
