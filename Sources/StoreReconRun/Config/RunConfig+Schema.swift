package import StoreReconCore

/// Every key the config may have, at every depth: a key the version does not know is an error (exit 78)
/// naming its full path and, where one is close, the key that was probably meant — a typo in a nested
/// key (`play.sale`) must not silently drop an input.
package indirect enum ConfigSchema: Sendable {
  /// A value whose inside is not checked here (a string, a number, a list of strings, or an object its
  /// own parser checks, such as `mail`).
  case value
  /// An object with these keys.
  case object([String: ConfigSchema])
  /// An object whose keys are names (products, stores, rules), each value of this shape.
  case map(ConfigSchema)
  /// A list whose items have this shape.
  case list(ConfigSchema)

  /// The config file's schema.
  package static let root = ConfigSchema.object([
    "timeZone": .value,
    "docsBaseURL": .value,
    "allowOutside": .value,
    "damaged": .object(["maxRejectPercent": .value, "maxRejects": .value, "minRejects": .value]),
    "appStore": .object([
      "transactions": .value, "salesReports": .value, "subscriberReports": .value, "financialReports": .value,
      "financialSummaries": .value,
      "reportTimeZone": .value, "signatures": .value, "testRootCertificate": .value,
      "notificationHistory": .value, "verifiedRecord": .value, "verifiedRecordKey": .value,
    ]),
    "play": .object(["sales": .value, "subscriptions": .value, "voided": .value, "earnings": .value]),
    "stripe": .object(["objects": .value, "events": .value, "reports": .value, "userMetadataKey": .value]),
    "app": .object([
      "entitlements": .value, "credentials": .value, "assignments": .value, "goodwill": .value,
      "credits": .value, "notifications": .value, "database": .value, "queries": .value,
    ]),
    "history": .value,
    "graceDays": .map(.value),
    "toleranceHours": .value,
    "creditGraceHours": .value,
    "notificationAgeHours": .value,
    "catalog": .map(.object(["type": .value, "period": .value, "units": .value, "tier": .value])),
    "rounding": .value,
    "experiments": .list(
      .object([
        "id": .value, "enrollStart": .value, "enrollEnd": .value,
        "arms": .list(.object(["id": .value, "weight": .value, "products": .value])),
        "maturityThreshold": .value, "bootstrap": .object(["iterations": .value, "seed": .value]),
      ])),
    "reportingCurrency": .value,
    "fxRates": .value,
    "decisions": .value,
    "mail": .value,
    "fetch": .object([
      "into": .value, "caFile": .value, "timeoutSeconds": .value, "retries": .value,
      "requestsPerSecond": .value, "concurrency": .value,
      "maxBodyBytes": .value, "appStoreServerURL": .value, "appStoreConnectURL": .value,
      "playDeveloperURL": .value, "storageURL": .value, "oauthTokenURL": .value, "stripeURL": .value,
      "stripeFilesURL": .value,
      "apple": .object([
        "keyId": .value, "issuerId": .value, "bundleId": .value, "privateKeyFile": .value,
        "vendorNumber": .value, "backfillDays": .value, "connectKeyId": .value,
        "connectPrivateKeyFile": .value,
      ]),
      "google": .object([
        "serviceAccountFile": .value, "packageName": .value, "bucket": .value, "backfillDays": .value,
      ]),
      "stripe": .object(["apiKeyFile": .value, "backfillDays": .value, "reports": .value]),
    ]),
    "alerts": .map(.object(["maxCount": .value, "maxAmount": .map(.value), "maxAmountMinor": .value])),
    "fees": .object([
      "appStore": .object([
        "standardBp": .value, "smallBusiness": .value, "smallBusinessBp": .value, "afterFirstYearBp": .value,
      ]),
      "play": .object(["subscriptionBp": .value, "oneTimeBp": .value]),
      "stripe": .object(["bp": .value]),
    ]),
  ])

  /// The first key of `value` (in key order, depth first) this schema does not know, as a one-line
  /// reason; `nil` when every key is known.
  package func unknownKey(in value: Any, path: String) -> String? {
    switch self {
    case .value:
      return nil
    case .object(let keys):
      guard let object = value as? [String: Any] else { return nil }
      for key in object.keys.sorted() {
        let here = path.isEmpty ? key : "\(path).\(key)"
        guard let inner = keys[key] else {
          let hint = ConfigSchema.closest(to: key, among: Array(keys.keys)).map { " — did you mean '\($0)'?" }
          return "unknown key '\(here)'"
            + (hint ?? " (known here: \(keys.keys.sorted().joined(separator: ", ")))")
        }
        if let problem = inner.unknownKey(in: object[key] as Any, path: here) { return problem }
      }
      return nil
    case .map(let inner):
      guard let object = value as? [String: Any] else { return nil }
      for key in object.keys.sorted() {
        if let problem = inner.unknownKey(in: object[key] as Any, path: "\(path).\(key)") { return problem }
      }
      return nil
    case .list(let inner):
      guard let items = value as? [Any] else { return nil }
      for (i, item) in items.enumerated() {
        if let problem = inner.unknownKey(in: item, path: "\(path)[\(i)]") { return problem }
      }
      return nil
    }
  }

  /// The known key nearest `key` when it is within a small edit distance (2, or 1 for short keys),
  /// ignoring case; `nil` when none is.
  package static func closest(to key: String, among known: [String]) -> String? {
    let limit = key.count <= 4 ? 1 : 2
    var best: (String, Int)?
    for candidate in known.sorted() {
      let d = distance(key.lowercased(), candidate.lowercased())
      if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
    }
    return best?.0
  }

  /// Optimal string alignment distance between two strings (by characters): Levenshtein's insertions,
  /// deletions and substitutions, and a swap of two adjacent characters counting as one edit
  /// (`rnu` is one edit from `run`, `--no-hsitory` one from `--no-history`).
  package static func distance(_ a: String, _ b: String) -> Int {
    let x = Array(a)
    let y = Array(b)
    guard !x.isEmpty else { return y.count }
    guard !y.isEmpty else { return x.count }
    var beforePrevious = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
      current[0] = i
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[y.count]
  }
}
