import Foundation
import Testing
import StoreReconIO
import StoreReconTestSupport

@testable import StoreReconFetch
@testable import StoreReconSettings

/// The App Store APIs' JWTs: header and claims as Apple documents them, kept until a minute before they
/// end, re-made on request; the key file's problems named without its bytes.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
    "no /usr/bin/openssl to make a test key"))
struct AppleTokensTests {
  /// A fresh P-256 key in PKCS#8 PEM (as App Store Connect's .p8), in `folder`.
  static func keyFile(_ folder: URL) throws -> String {
    let path = folder.appendingPathComponent("AuthKey_TEST.p8").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return path
  }

  static func decode(_ part: Substring) throws -> JSONValue {
    try JSONParser.parse(try #require(Base64URL.decode(String(part))))
  }

  @Test func aTokenHasTheDocumentedHeaderAndClaimsAndLivesFifteenMinutes() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clock = RecordingClock(time: 1_764_547_200)
    let tokens = AppleTokens(
      keyId: "2X9R4HXF34", issuerId: "issuer-1", bundleId: "com.acme.app", keyFile: try Self.keyFile(folder),
      clock: clock)
    let token = try tokens.token(renew: false)
    let parts = token.split(separator: ".")
    #expect(parts.count == 3)
    #expect(
      try Self.decode(parts[0])
        == JSONParser.parse("{\"alg\":\"ES256\",\"kid\":\"2X9R4HXF34\",\"typ\":\"JWT\"}"))
    let claims = try Self.decode(parts[1])
    #expect(claims["iss"]?.stringValue == "issuer-1")
    #expect(claims["aud"]?.stringValue == "appstoreconnect-v1")
    #expect(claims["bid"]?.stringValue == "com.acme.app")
    #expect(claims["iat"]?.int64Value == 1_764_547_200)
    #expect(claims["exp"]?.int64Value == Int64(1_764_548_100))
    #expect(Base64URL.decode(String(parts[2]))?.count == 64)

    clock.time += 839
    #expect(try tokens.token(renew: false) == token, "kept until a minute before it ends")
    clock.time += 2
    let later = try tokens.token(renew: false)
    #expect(later != token)
    #expect(try tokens.token(renew: true) != later, "a 401 asks for a new one")
    #expect(tokens.made == 3)

    let connect = AppleTokens(
      keyId: "K", issuerId: "issuer-1", bundleId: nil, keyFile: try Self.keyFile(folder), clock: clock)
    let connectClaims = try Self.decode(try connect.token(renew: false).split(separator: ".")[1])
    #expect(connectClaims["bid"] == nil)
  }

  @Test func keyFileProblemsAreNamedWithoutTheirBytes() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = AppleTokens(
      keyId: "K", issuerId: "I", bundleId: nil, keyFile: "/nonexistent.p8", clock: RecordingClock())
    #expect { try missing.token(renew: false) } throws: { ($0 as? FetchError)?.kind == .missingInput }
    let notAKey = folder.appendingPathComponent("notakey.p8")
    try "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----\n".write(
      to: notAKey, atomically: true, encoding: .utf8)
    let bad = AppleTokens(
      keyId: "K", issuerId: "I", bundleId: nil, keyFile: notAKey.path, clock: RecordingClock())
    #expect { try bad.token(renew: false) } throws: { error in
      guard let error = error as? FetchError else { return false }
      return error.kind == .config && !error.message.contains("c2VjcmV0")
        && error.message.contains("notakey.p8")
    }
  }
}
