import Foundation
import StoreReconPlatform
package import StoreReconSettings

/// The bearer tokens of Apple's APIs: ES256 JWTs (header `alg` ES256, `kid`, `typ` JWT; claims `iss`,
/// `iat`, `exp`, `aud` `appstoreconnect-v1`, and `bid` for the App Store Server API) signed with the
/// `.p8` key. A token lives 15 minutes (Apple refuses more than 20) and is re-made a minute before it
/// ends, or at once when ``token(renew:)`` is asked to (after a 401). The key is read once, when the
/// first token is made; neither it nor a token is ever put in a message.
package final class AppleTokens: BearerTokens {
  /// Seconds a token is valid (`exp - iat`).
  package static let lifetime: Int64 = 900
  private let keyId: String
  private let issuerId: String
  private let bundleId: String?
  private let keyFile: String
  private let clock: any FetchClock
  private var signer: ES256Signer?
  private var current: (token: String, expires: Int64)?
  /// One thread at a time reads or makes the token (the customers are fetched on several).
  private let lock = Lock()
  /// Tokens made so far.
  package private(set) var made = 0

  /// Tokens of key `keyId` (its `.p8` in `keyFile`) and issuer `issuerId`, with the `bid` claim when
  /// `bundleId` is given (the Server API wants it; the Connect API does not).
  package init(keyId: String, issuerId: String, bundleId: String?, keyFile: String, clock: any FetchClock) {
    self.keyId = keyId
    self.issuerId = issuerId
    self.bundleId = bundleId
    self.keyFile = keyFile
    self.clock = clock
  }

  package func token(renew: Bool) throws(FetchError) -> String {
    try lock.locked { Result { () throws(FetchError) in try tokenLocked(renew: renew) } }.get()
  }

  /// ``token(renew:)`` under the lock.
  private func tokenLocked(renew: Bool) throws(FetchError) -> String {
    let now = Int64(clock.now())
    if !renew, let current, current.expires - 60 > now { return current.token }
    let signer = try loadSigner()
    let header = JSONText.object([
      ("alg", .string("ES256")), ("kid", .string(keyId)), ("typ", .string("JWT")),
    ]).compact()
    var claims: [(String, JSONText)] = [
      ("iss", .string(issuerId)), ("iat", .int(now)), ("exp", .int(now + AppleTokens.lifetime)),
      ("aud", .string("appstoreconnect-v1")),
    ]
    if let bundleId { claims.append(("bid", .string(bundleId))) }
    guard
      let token = JWT.make(
        header: header, claims: JSONText.object(claims).compact(), sign: { signer.sign($0) })
    else {
      throw FetchError(.software, "apple: libcrypto could not sign the API token with key \(keyId)")
    }
    current = (token, now + AppleTokens.lifetime)
    made += 1
    return token
  }

  /// The signer of the key file, read on first use.
  private func loadSigner() throws(FetchError) -> ES256Signer {
    if let signer { return signer }
    guard var pem = FileManager.default.contents(atPath: keyFile).map({ [UInt8]($0) }) else {
      throw FetchError(.missingInput, "apple: the key file \(keyFile) does not exist or cannot be read")
    }
    defer { for i in pem.indices { pem[i] = 0 } }
    do {
      let loaded = try ES256Signer(pem: pem)
      signer = loaded
      return loaded
    } catch {
      throw FetchError(
        .config,
        "apple: the key file \(keyFile) is not an EC P-256 private key (the .p8 App Store Connect gives)")
    }
  }
}
