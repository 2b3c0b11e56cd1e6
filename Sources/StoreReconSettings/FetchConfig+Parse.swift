import Foundation

extension FetchConfig {
  /// Reads the config's `fetch` value (`nil` when absent); paths resolve against `baseDirectory`. `name`
  /// (the config's path) starts every message. Throws ``FetchError`` of kind config.
  package static func parse(_ value: Any?, baseDirectory: String, name: String) throws(FetchError)
    -> FetchConfig?
  {
    guard let value else { return nil }
    func fail(_ what: String) -> FetchError { FetchError(.config, "config \(name): \(what)") }
    guard let object = value as? [String: Any] else { throw fail("fetch must be an object") }
    let reader = Reader(object: object, prefix: "fetch", fail: fail)
    guard let into = try reader.string("into") else {
      throw fail("fetch.into must name the folder to fetch into")
    }
    var config = FetchConfig(into: resolve(into, baseDirectory))
    config.caFile = try reader.string("caFile").map { resolve($0, baseDirectory) }
    config.timeoutSeconds = try reader.whole("timeoutSeconds", 1...3600) ?? config.timeoutSeconds
    config.retries = try reader.whole("retries", 0...20) ?? config.retries
    config.maxBodyBytes = try reader.whole("maxBodyBytes", 1024...(4 << 30)) ?? config.maxBodyBytes
    config.concurrency = try reader.whole("concurrency", 1...64) ?? config.concurrency
    if let rate = object["requestsPerSecond"] {
      guard !isBoolean(rate), let n = (rate as? Int).map(Double.init) ?? (rate as? Double), n >= 0, n <= 1000
      else {
        throw fail("fetch.requestsPerSecond must be a number from 0 (no bound) to 1000")
      }
      config.requestsPerSecond = n
    }
    config.appStoreServerURL = try reader.url("appStoreServerURL") ?? config.appStoreServerURL
    config.appStoreConnectURL = try reader.url("appStoreConnectURL") ?? config.appStoreConnectURL
    config.playDeveloperURL = try reader.url("playDeveloperURL") ?? config.playDeveloperURL
    config.storageURL = try reader.url("storageURL") ?? config.storageURL
    config.oauthTokenURL = try reader.url("oauthTokenURL") ?? config.oauthTokenURL
    config.stripeURL = try reader.url("stripeURL") ?? config.stripeURL
    config.stripeFilesURL = try reader.url("stripeFilesURL") ?? config.stripeFilesURL
    if let apple = object["apple"] {
      guard let apple = apple as? [String: Any] else { throw fail("fetch.apple must be an object") }
      config.apple = try parseApple(Reader(object: apple, prefix: "fetch.apple", fail: fail), baseDirectory)
    }
    if let google = object["google"] {
      guard let google = google as? [String: Any] else { throw fail("fetch.google must be an object") }
      let reader = Reader(object: google, prefix: "fetch.google", fail: fail)
      var settings = Google()
      settings.serviceAccountFile = try reader.keyFile("serviceAccountFile").map {
        resolve($0, baseDirectory)
      }
      settings.packageName = try reader.string("packageName")
      settings.bucket = try reader.string("bucket")
      settings.backfillDays = try reader.whole("backfillDays", 1...365) ?? settings.backfillDays
      config.google = settings
    }
    if let stripe = object["stripe"] {
      guard let stripe = stripe as? [String: Any] else { throw fail("fetch.stripe must be an object") }
      config.stripe = try parseStripe(
        Reader(object: stripe, prefix: "fetch.stripe", fail: fail), baseDirectory)
    }
    return config
  }

  /// `fetch.stripe`: every key optional (the key may come from the environment).
  private static func parseStripe(_ reader: Reader, _ baseDirectory: String) throws(FetchError) -> Stripe {
    var stripe = Stripe()
    if let path = try reader.keyFile("apiKeyFile") {
      // A key pasted in place of its file's name (sk_live_…, rk_live_…) is refused and not echoed.
      let prefixes = ["sk_", "rk_", "pk_", "whsec_"]
      guard !prefixes.contains(where: { path.hasPrefix($0) }) else {
        throw reader.fail(
          "fetch.stripe.apiKeyFile must name the key's file, not hold the key (the value was not shown)")
      }
      stripe.apiKeyFile = resolve(path, baseDirectory)
    }
    stripe.backfillDays = try reader.whole("backfillDays", 1...365) ?? stripe.backfillDays
    if let value = reader.object["reports"] {
      guard isBoolean(value), let on = value as? Bool else {
        throw reader.fail("fetch.stripe.reports must be true or false")
      }
      stripe.reports = on
    }
    return stripe
  }

  /// `fetch.apple`: key id, issuer id and bundle id are required.
  private static func parseApple(_ reader: Reader, _ baseDirectory: String) throws(FetchError) -> Apple {
    func required(_ key: String) throws(FetchError) -> String {
      guard let value = try reader.string(key) else { throw reader.fail("fetch.apple.\(key) is required") }
      return value
    }
    var apple = Apple(
      keyId: try required("keyId"), issuerId: try required("issuerId"), bundleId: try required("bundleId"))
    apple.privateKeyFile = try reader.keyFile("privateKeyFile").map { resolve($0, baseDirectory) }
    apple.vendorNumber = try reader.string("vendorNumber")
    apple.connectKeyId = try reader.string("connectKeyId")
    apple.connectPrivateKeyFile = try reader.keyFile("connectPrivateKeyFile").map {
      resolve($0, baseDirectory)
    }
    apple.backfillDays = try reader.whole("backfillDays", 1...365) ?? apple.backfillDays
    return apple
  }

  /// Whether a decoded JSON value is `true`/`false` (Foundation bridges 0 and 1 to `Bool` as well, so
  /// `is Bool` cannot tell): its number type is `c`.
  static func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return String(cString: number.objCType) == "c"
  }

  /// `path` against `base` unless absolute.
  static func resolve(_ path: String, _ base: String) -> String {
    path.hasPrefix("/") ? path : URL(fileURLWithPath: base).appendingPathComponent(path).path
  }

  /// Typed reads of one object's keys, with messages naming the key's full path.
  private struct Reader {
    var object: [String: Any]
    var prefix: String
    var fail: (String) -> FetchError

    func string(_ key: String) throws(FetchError) -> String? {
      guard let value = object[key] else { return nil }
      guard let text = value as? String, !text.isEmpty else {
        throw fail("\(prefix).\(key) must be a non-empty string")
      }
      return text
    }

    func whole(_ key: String, _ range: ClosedRange<Int>) throws(FetchError) -> Int? {
      guard let value = object[key] else { return nil }
      guard !isBoolean(value), let n = value as? Int, range.contains(n) else {
        throw fail("\(prefix).\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return n
    }

    func url(_ key: String) throws(FetchError) -> String? {
      guard let text = try string(key) else { return nil }
      guard text.hasPrefix("https://"), !text.contains("?") else {
        throw fail("\(prefix).\(key) must be an https:// URL without a query, got '\(text)'")
      }
      return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// A key file's path: the key itself pasted in its place is refused (and not echoed).
    func keyFile(_ key: String) throws(FetchError) -> String? {
      guard let text = try string(key) else { return nil }
      guard !text.contains("-----BEGIN"), !text.contains("{"), !text.contains("\n") else {
        throw fail("\(prefix).\(key) must name the key's file, not hold the key (the value was not shown)")
      }
      return text
    }
  }
}
