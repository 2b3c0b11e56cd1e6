import Foundation
import StoreReconPlatform
import StoreReconSettings

/// The JWT a service account presents for an OAuth 2.0 access token (RFC 7523, the JWT-bearer grant):
/// header `{"alg":"RS256","typ":"JWT"}`, claims `iss` (the account's e-mail), `scope`, `aud` (the token
/// URL), `iat` and `exp` (an hour later, the most Google accepts), signed RS256 with the account's key.
enum GoogleJWT {
  /// What the fetch reads: the Play Developer API and the reports bucket, read-only.
  static let scope =
    "https://www.googleapis.com/auth/androidpublisher https://www.googleapis.com/auth/devstorage.read_only"
  /// How long an assertion is valid, in seconds (Google's limit: an hour).
  static let lifetimeSeconds: Int64 = 3600

  /// The signed assertion `header.claims.signature` (base64url, no padding) issued at `issuedAt` (seconds
  /// since 1970) for `audience`.
  static func assertion(account: GoogleServiceAccount, audience: String, issuedAt: Int64) throws(FetchError)
    -> String
  {
    let claims: [String: Any] = [
      "iss": account.clientEmail, "scope": scope, "aud": audience, "iat": issuedAt,
      "exp": issuedAt + lifetimeSeconds,
    ]
    let header = base64URL(Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
    guard let body = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) else {
      throw FetchError(.software, "google: the JWT claims cannot be encoded")
    }
    let signingInput = header + "." + base64URL([UInt8](body))
    do {
      return signingInput + "." + base64URL(try account.signer.sign(Array(signingInput.utf8)))
    } catch {
      throw FetchError(.software, "google: \(error.message)")
    }
  }

  /// `bytes` in base64url without padding (RFC 7515 §2).
  static func base64URL(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    while text.hasSuffix("=") { text.removeLast() }
    return text
  }
}
