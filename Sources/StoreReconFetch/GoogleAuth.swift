import Foundation
import StoreReconPlatform
import StoreReconSettings

/// OAuth 2.0 access tokens for a service account (the JWT-bearer grant, RFC 7523): a signed
/// ``GoogleJWT`` posted to the token URL, the access token kept until a minute before it expires, a new
/// one on a 401 (``HTTPClient`` asks once) or when it is about to expire. Neither the assertion nor an
/// access token ever reaches a message, a file or the progress lines.
final class GoogleAuth: BearerTokens {
  /// A token is renewed this many seconds before Google's `expires_in` runs out.
  static let renewBeforeSeconds = 60.0

  private let account: GoogleServiceAccount
  private let tokenURL: String
  private let http: HTTPClient
  private var current: (token: String, expiresAt: Double)?
  /// One thread at a time reads or asks for the token; the others wait for the one asked for.
  private let lock = Lock()
  /// Access tokens obtained so far.
  private(set) var tokensIssued = 0

  /// Tokens for `account` from `tokenURL` (`fetch.oauthTokenURL`), asked for through `http`.
  init(account: GoogleServiceAccount, tokenURL: String, http: HTTPClient) {
    self.account = account
    self.tokenURL = tokenURL
    self.http = http
  }

  func token(renew: Bool) throws(FetchError) -> String {
    try lock.locked { Result { () throws(FetchError) in try tokenLocked(renew: renew) } }.get()
  }

  /// ``token(renew:)`` under the lock.
  private func tokenLocked(renew: Bool) throws(FetchError) -> String {
    let now = http.clock.now()
    if !renew, let current, now < current.expiresAt - GoogleAuth.renewBeforeSeconds { return current.token }
    let assertion = try GoogleJWT.assertion(account: account, audience: tokenURL, issuedAt: Int64(now))
    let request = HTTPRequest(
      method: "POST", url: tokenURL,
      headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
      body: Array(
        "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8))
    let response = try http.send(request)
    if response.status == 400 || response.status == 401 || response.status == 403 {
      // Google answers an unknown or disabled key, a bad signature or a wrong clock with 400 invalid_grant.
      let reason = (try? GoogleJSON.object(response, for: request))?["error"] as? String
      throw FetchError(
        .noPermission,
        "\(request.label): HTTP \(response.status) — the service account was refused"
          + (reason.map { " (\($0))" } ?? "")
          + "; check the key file, that the account is enabled and that the clock is right")
    }
    try http.require(response, for: request)
    let body = try GoogleJSON.object(response, for: request)
    guard let token = body["access_token"] as? String, !token.isEmpty,
      let lifetime = (body["expires_in"] as? NSNumber)?.doubleValue, lifetime > 0
    else {
      throw FetchError(.dataError, "\(request.label): the answer has no access_token and expires_in")
    }
    current = (token, http.clock.now() + lifetime)
    tokensIssued += 1
    return token
  }
}
