import Foundation
import StoreReconCore
import StoreReconPlatform
import StoreReconTestSupport
import Testing

@testable import StoreReconFetch
@testable import StoreReconSettings

/// The service-account key file, the RS256 JWT it signs, the access token's cache, and when a
/// subscription resource is settled — without a server (a scripted transport and a recording clock).
@Suite(.enabled(if: ServiceAccountFixture.available, "no /usr/bin/openssl to make an RSA test key: skipped"))
struct GoogleAuthTests {
  static let tokenURL = "https://oauth2.example.com/token"

  /// A key file in a new folder, and the folder.
  static func fixture() throws -> (ServiceAccountFixture, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "google-auth-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return (try ServiceAccountFixture(in: folder), folder)
  }

  static func decode(_ part: Substring) -> [UInt8] {
    var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    return Data(base64Encoded: text).map { [UInt8]($0) } ?? []
  }

  @Test func theAssertionCarriesTheClaimsAndVerifies() throws {
    let (fixture, folder) = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: folder) }
    let account = try GoogleServiceAccount.load(path: fixture.keyFile.path)
    #expect(account.clientEmail == ServiceAccountFixture.clientEmail)
    let jwt = try GoogleJWT.assertion(account: account, audience: Self.tokenURL, issuedAt: 1_764_547_200)
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    try #require(parts.count == 3)
    #expect(String(decoding: Self.decode(parts[0]), as: UTF8.self) == #"{"alg":"RS256","typ":"JWT"}"#)
    let claims = try #require(
      try JSONSerialization.jsonObject(with: Data(Self.decode(parts[1]))) as? [String: Any])
    #expect(claims["iss"] as? String == ServiceAccountFixture.clientEmail)
    #expect(claims["aud"] as? String == Self.tokenURL)
    #expect(claims["scope"] as? String == GoogleJWT.scope)
    #expect(claims["iat"] as? Int == 1_764_547_200 && claims["exp"] as? Int == 1_764_550_800)
    let publicKey = try [UInt8](Data(contentsOf: fixture.publicKey))
    let signed = Array("\(parts[0]).\(parts[1])".utf8)
    #expect(RS256Signer.verify(message: signed, signature: Self.decode(parts[2]), publicKeyPEM: publicKey))
    #expect(
      !RS256Signer.verify(message: signed + [0x20], signature: Self.decode(parts[2]), publicKeyPEM: publicKey)
    )
  }

  @Test func aKeyFileThatIsNotOneIsNamedWithoutItsContents() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "google-key-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("none.json").path
    #expect(
      throws: FetchError(
        .missingInput, "google service account file \(missing) does not exist or cannot be read")
    ) {
      try GoogleServiceAccount.load(path: missing)
    }
    let file = folder.appendingPathComponent("sa.json")
    let secret = "-----BEGIN PRIVATE KEY-----\nMIIEsecretsecretsecret\n-----END PRIVATE KEY-----\n"
    try JSONSerialization.data(withJSONObject: [
      "client_email": "a@b.iam.gserviceaccount.com", "private_key": secret,
    ])
    .write(to: file)
    do {
      _ = try GoogleServiceAccount.load(path: file.path)
      Issue.record("a key that does not parse was accepted")
    } catch {
      #expect(error.kind == .config)
      #expect(
        error.message == "google service account file \(file.path): the private key is not a PEM private key")
      #expect(!error.message.contains("MIIE"))
    }
    try JSONSerialization.data(withJSONObject: ["type": "authorized_user", "private_key": secret]).write(
      to: file)
    #expect(
      throws: FetchError(
        .config,
        "google service account file \(file.path) is not a service-account JSON key (client_email, private_key)"
      )
    ) {
      try GoogleServiceAccount.load(path: file.path)
    }
  }

  static func grant(_ token: String, expiresIn: Int = 3599) -> ScriptedTransport.Answer {
    .response(
      HTTPResponse(
        status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
        body: Array(#"{"access_token":"\#(token)","expires_in":\#(expiresIn),"token_type":"Bearer"}"#.utf8)))
  }

  @Test func theAccessTokenIsKeptUntilAMinuteBeforeItExpires() throws {
    let (fixture, folder) = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = ScriptedTransport([
      Self.grant("ya29.one"), Self.grant("ya29.two"), Self.grant("ya29.three"),
    ])
    let clock = RecordingClock()
    var policy = HTTPClient.Policy()
    policy.requestsPerSecond = 0
    let http = HTTPClient(transport: transport, policy: policy, clock: clock)
    let auth = GoogleAuth(
      account: try GoogleServiceAccount.load(path: fixture.keyFile.path), tokenURL: Self.tokenURL, http: http)
    #expect(try auth.token(renew: false) == "ya29.one")
    clock.time += 3599 - 61
    #expect(try auth.token(renew: false) == "ya29.one")
    clock.time += 2
    #expect(try auth.token(renew: false) == "ya29.two")
    #expect(try auth.token(renew: true) == "ya29.three")
    #expect(transport.requests.count == 3 && auth.tokensIssued == 3)
    let body = String(decoding: transport.requests[0].body, as: UTF8.self)
    #expect(body.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=ey"))
    #expect(transport.requests[0].method == "POST" && transport.requests[0].url == Self.tokenURL)
  }

  @Test func aRefusedGrantIsAPermissionError() throws {
    let (fixture, folder) = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: folder) }
    let refusal = HTTPResponse(
      status: 400, headers: [("Content-Type", "application/json")],
      body: Array(#"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#.utf8))
    let http = HTTPClient(transport: ScriptedTransport([.response(refusal)]), clock: RecordingClock())
    let auth = GoogleAuth(
      account: try GoogleServiceAccount.load(path: fixture.keyFile.path), tokenURL: Self.tokenURL, http: http)
    do {
      _ = try auth.token(renew: false)
      Issue.record("a refused grant gave a token")
    } catch {
      #expect(error.kind == .noPermission)
      #expect(
        error.message.hasPrefix("POST /token: HTTP 400 — the service account was refused (invalid_grant)"))
    }
  }

  @Test func aSubscriptionIsSettledOnlyWhenExpiredLongAgo() {
    let now = Instant(ms: 1_764_547_200_000)  // 2025-12-01
    func resource(_ state: String, _ expiries: [String?]) -> [String: Any] {
      ["subscriptionState": state, "lineItems": expiries.map { $0.map { ["expiryTime": $0] } ?? [:] }]
    }
    let expired = "SUBSCRIPTION_STATE_EXPIRED"
    #expect(GoogleSubscriptions.isSettled(resource(expired, ["2025-10-31T00:00:00Z"]), now: now))
    #expect(!GoogleSubscriptions.isSettled(resource(expired, ["2025-11-02T00:00:00Z"]), now: now))
    #expect(
      !GoogleSubscriptions.isSettled(
        resource(expired, ["2025-10-01T00:00:00Z", "2025-11-20T00:00:00Z"]), now: now))
    #expect(!GoogleSubscriptions.isSettled(resource(expired, ["2025-10-01T00:00:00Z", nil]), now: now))
    #expect(
      !GoogleSubscriptions.isSettled(
        resource("SUBSCRIPTION_STATE_ACTIVE", ["2025-01-01T00:00:00Z"]), now: now))
    #expect(
      GoogleSubscriptions.isSettled(resource("SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED", []), now: now))
  }
}
