import Foundation
import StoreReconPlatform
import StoreReconSettings

/// A Google service account's JSON key file (Google Cloud console → IAM → Service accounts → Keys → Add
/// key → JSON): the account's e-mail and its RSA private key, ready to sign. The key's bytes are never
/// kept as text, never printed and never part of an error message.
struct GoogleServiceAccount {
  /// `client_email`: the JWT's issuer.
  let clientEmail: String
  /// Signs with `private_key`.
  let signer: RS256Signer

  /// Reads the key file at `path`. Throws (missing input) when it does not exist, (config) when it is not
  /// a service-account key; the message names the file, never its contents.
  static func load(path: String) throws(FetchError) -> GoogleServiceAccount {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FetchError(.missingInput, "google service account file \(path) does not exist or cannot be read")
    }
    let notAKey = FetchError(
      .config,
      "google service account file \(path) is not a service-account JSON key (client_email, private_key)")
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw notAKey }
    if let type = object["type"] as? String, type != "service_account" { throw notAKey }
    guard let email = object["client_email"] as? String, !email.isEmpty,
      let key = object["private_key"] as? String, !key.isEmpty
    else { throw notAKey }
    do {
      return GoogleServiceAccount(clientEmail: email, signer: try RS256Signer(pem: Array(key.utf8)))
    } catch {
      throw FetchError(.config, "google service account file \(path): \(error.message)")
    }
  }
}
