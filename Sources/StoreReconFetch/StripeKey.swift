import Foundation
import StoreReconSettings

/// The Stripe API key a fetch sends as `Authorization: Bearer …`: from the environment variable
/// `STRIPE_API_KEY` when set, else from the file `fetch.stripe.apiKeyFile` names. The key is never put in a
/// message, a progress line or a file; a file that group or others can open is refused (as libpq refuses
/// such a `~/.pgpass`), and so is anything that is not a secret or restricted key's shape.
struct StripeKey {
  /// The key's text (never printed).
  let secret: String
  /// Where it came from, for the progress line (`STRIPE_API_KEY`, or the file's path).
  let origin: String

  /// A restricted key (`rk_…`), as the docs recommend; `false` for an unrestricted secret key (`sk_…`).
  var isRestricted: Bool { secret.hasPrefix("rk_") }

  /// The key of `settings` in `environment`. Throws (config) when none is configured, when the file is
  /// open to others or the text is not a key's shape; (missing input) when the file does not exist.
  static func load(_ settings: FetchConfig.Stripe, environment: [String: String]) throws(FetchError)
    -> StripeKey
  {
    let variable = FetchConfig.Stripe.keyVariable
    if let text = environment[variable], !text.isEmpty {
      try check(text, origin: "the environment variable \(variable)")
      return StripeKey(secret: text, origin: variable)
    }
    guard let path = settings.apiKeyFile else {
      throw FetchError(
        .config, "stripe: no API key (fetch.stripe.apiKeyFile, or the environment variable \(variable))")
    }
    guard FileManager.default.fileExists(atPath: path) else {
      throw FetchError(.missingInput, "the Stripe key file \(path) (fetch.stripe.apiKeyFile) does not exist")
    }
    if let problem = MailSettings.openPermissions(path) {
      throw FetchError(
        .config,
        "the Stripe key file \(path) (fetch.stripe.apiKeyFile) \(problem): refused, as libpq refuses such a "
          + "~/.pgpass; run chmod 600 \(path)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FetchError(.missingInput, "the Stripe key file \(path) (fetch.stripe.apiKeyFile) cannot be read")
    }
    var text = String(decoding: data, as: UTF8.self)
    // One trailing line break, as an editor leaves it ("\r\n" is a single Character in Swift).
    if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
    try check(text, origin: "the Stripe key file \(path) (fetch.stripe.apiKeyFile)")
    return StripeKey(secret: text, origin: path)
  }

  /// Throws (config) unless `text` has the shape of a secret or restricted key: `sk_` or `rk_`, then
  /// `live_` or `test_`, then letters and digits. Says what it is instead when it is recognisably another
  /// kind of Stripe secret; never quotes it.
  static func check(_ text: String, origin: String) throws(FetchError) {
    let want = "a restricted key (rk_live_…) or a secret key (sk_live_…; rk_test_…/sk_test_… for test mode)"
    func refuse(_ what: String) -> FetchError {
      FetchError(.config, "\(origin) \(what); fetch needs \(want) (the value was not shown)")
    }
    if text.hasPrefix("pk_") { throw refuse("holds a publishable key (pk_…), which reads nothing") }
    if text.hasPrefix("whsec_") { throw refuse("holds a webhook signing secret (whsec_…), not an API key") }
    let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "sk" || parts[0] == "rk", parts[1] == "live" || parts[1] == "test",
      parts[2].utf8.count >= 16,
      parts[2].utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) })
    else {
      throw refuse("does not hold a Stripe API key of the expected shape")
    }
  }
}
