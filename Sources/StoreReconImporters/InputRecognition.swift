package import StoreReconIO

/// What an input file looks like from its first bytes: which role's format its header names or JSON
/// keys belong to.
package enum RecognisedInput: String, Sendable, CaseIterable {
  /// JSON Lines of App Store transactions (`transactionId` / `originalTransactionId`, or compact JWS).
  case appStoreTransactions
  /// Google Play `subscriptionsv2` resources (`lineItems`, `subscriptionState`).
  case playSubscriptions
  /// Google Play voided purchases (`voidedTimeMillis`).
  case playVoided
  /// Google Play's estimated sales report (`Order Number`, `Financial Status`).
  case playSales
  /// Google Play's earnings report (`Transaction Date`, `Transaction Type`, `Amount (Merchant Currency)`).
  case playEarnings
  /// Apple's Summary Sales report.
  case appleSales
  /// Apple's Subscriber report.
  case appleSubscriber
  /// Apple's Financial report detail.
  case appleFinancial
  /// The app's entitlements contract (`entitlement_id`, …).
  case appEntitlements
  /// The app's store credentials contract (`store_key`, `linked_store_key`, `claimed_at`).
  case appCredentials
  /// The app's experiment assignments (`experiment_id`, `arm_id`).
  case appAssignments
  /// The app's goodwill grants (`grant_id`).
  case appGoodwill
  /// The app's in-app credits (`credit_id`, `transaction_id`).
  case appCredits
  /// The app's notification log (`notification_id`, `payload`).
  case appNotifications
  /// Stripe API objects as JSON Lines (`"object"` and `"livemode"`).
  case stripeObjects
  /// Stripe event records as JSON Lines (the first line's `"object"` is `"event"`).
  case stripeEvents
  /// Stripe's itemized balance change report (`balance_transaction_id`, `reporting_category`).
  case stripeBalance
  /// Nothing recognisable (empty, or another format).
  case unknown

  /// The run's role name that reads this kind (`app_store.sales_reports`); `nil` for ``unknown``.
  package var role: String? { RecognisedInput.roles.first { $0.kind == self }?.role }

  /// The config key files of this kind are listed under (`appStore.salesReports`).
  package var configKey: String? { RecognisedInput.roles.first { $0.kind == self }?.key }

  /// What the file looks like, with its article ("an Apple Summary Sales report").
  package var looksLike: String {
    switch self {
    case .appStoreTransactions: return "App Store transactions (JSON Lines)"
    case .playSubscriptions: return "Google Play subscriptions (subscriptionsv2 JSON)"
    case .playVoided: return "Google Play voided purchases (JSON)"
    case .playSales: return "a Google Play estimated sales report"
    case .playEarnings: return "a Google Play earnings report"
    case .appleSales: return "an Apple Summary Sales report"
    case .appleSubscriber: return "an Apple Subscriber report"
    case .appleFinancial: return "an Apple Financial report"
    case .appEntitlements: return "the app's entitlements"
    case .appCredentials: return "the app's store credentials"
    case .appAssignments: return "the app's experiment assignments"
    case .appGoodwill: return "the app's goodwill grants"
    case .appCredits: return "the app's credits"
    case .appNotifications: return "the app's notification log"
    case .stripeObjects: return "Stripe API objects (JSON Lines)"
    case .stripeEvents: return "Stripe events (JSON Lines)"
    case .stripeBalance: return "a Stripe balance report (balance_change_from_activity.itemized)"
    case .unknown: return "an unrecognised file"
    }
  }

  /// What a role reads, for "not …" ("App Store transactions").
  var roleReads: String {
    switch self {
    case .appStoreTransactions: return "App Store transactions"
    case .playSubscriptions: return "Google Play subscriptions"
    case .playVoided: return "Google Play voided purchases"
    case .playSales: return "a Google Play sales report"
    case .playEarnings: return "a Google Play earnings report"
    case .appleSales: return "an Apple Summary Sales report"
    case .appleSubscriber: return "an Apple Subscriber report"
    case .appleFinancial: return "an Apple Financial report"
    case .appEntitlements: return "entitlements"
    case .appCredentials: return "store credentials"
    case .appAssignments: return "experiment assignments"
    case .appGoodwill: return "goodwill grants"
    case .appCredits: return "credits"
    case .appNotifications: return "a notification log"
    case .stripeObjects: return "Stripe API objects"
    case .stripeEvents: return "Stripe events"
    case .stripeBalance: return "a Stripe balance report"
    case .unknown: return "this input"
    }
  }

  /// Role name, config key and kind of every input role.
  static let roles: [(role: String, key: String, kind: RecognisedInput)] = [
    ("app_store.transactions", "appStore.transactions", .appStoreTransactions),
    ("app_store.sales_reports", "appStore.salesReports", .appleSales),
    ("app_store.subscriber_reports", "appStore.subscriberReports", .appleSubscriber),
    ("app_store.financial_reports", "appStore.financialReports", .appleFinancial),
    ("play.sales", "play.sales", .playSales),
    ("play.subscriptions", "play.subscriptions", .playSubscriptions),
    ("play.voided", "play.voided", .playVoided),
    ("play.earnings", "play.earnings", .playEarnings),
    ("app.entitlements", "app.entitlements", .appEntitlements),
    ("app.credentials", "app.credentials", .appCredentials),
    ("app.assignments", "app.assignments", .appAssignments),
    ("app.goodwill", "app.goodwill", .appGoodwill),
    ("app.credits", "app.credits", .appCredits),
    ("app.notifications", "app.notifications", .appNotifications),
    ("stripe.objects", "stripe.objects", .stripeObjects),
    ("stripe.events", "stripe.events", .stripeEvents),
    ("stripe.reports", "stripe.reports", .stripeBalance),
  ]
}

/// Tells, before a file is imported, whether it is the kind of input its role expects.
package enum InputRecognition {
  /// How much of a file is looked at.
  package static let prefixLimit = 64 * 1024

  /// Throws ``InputError/wrongRole(path:looksLike:belongsUnder:)`` when `path` clearly is another kind
  /// of input than `role` expects; returns when it fits or cannot be told (an empty, unreadable or
  /// unrecognisable file, an unknown role: the importer then reports what it finds).
  package static func check(path: String, displayName: String, role: String) throws(InputError) {
    guard let expected = RecognisedInput.roles.first(where: { $0.role == role })?.kind else { return }
    let found = recognise(path: path, displayName: displayName)
    // Events are Stripe objects too: a webhook log is a valid `stripe.objects` input.
    if expected == .stripeObjects && found == .stripeEvents { return }
    guard found != .unknown, found != expected, let key = found.configKey else { return }
    throw .wrongRole(
      path: displayName, looksLike: "\(found.looksLike), not \(expected.roleReads)", belongsUnder: key)
  }

  /// What the file at `path` looks like from its first ``prefixLimit`` bytes; ``RecognisedInput/unknown``
  /// when it cannot be opened.
  package static func recognise(path: String, displayName: String) -> RecognisedInput {
    guard let bytes = try? InputBytes.prefix(path: path, displayName: displayName, limit: prefixLimit) else {
      return .unknown
    }
    return recognise(prefix: bytes)
  }

  /// What text starting with `prefix` (UTF-8, no byte-order mark) looks like.
  package static func recognise(prefix: [UInt8]) -> RecognisedInput {
    var start = 0
    while start < prefix.count, [0x20, 0x09, 0x0D, 0x0A].contains(prefix[start]) { start += 1 }
    guard start < prefix.count else { return .unknown }
    let text = String(decoding: prefix[start...], as: UTF8.self)
    let first = prefix[start]
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") {
      return json(text)
    }
    let line = text.prefix { $0 != "\n" && $0 != "\r" }
    if isCompactJWS(line) { return .appStoreTransactions }
    return header(String(line))
  }

  /// JSON text by its keys.
  static func json(_ text: String) -> RecognisedInput {
    // The quoted keys found in one pass over the bytes (Foundation's `contains` compares Unicode, and
    // the generic `firstRange` costs more still: some 20 to 80 instructions a byte).
    let keys = quotedWords(Array(text.utf8))
    func has(_ key: String) -> Bool { keys.contains(key) }
    if has("lineItems") || has("subscriptionState") { return .playSubscriptions }
    if has("voidedTimeMillis") || has("voidedSource") || has("voidedReason") { return .playVoided }
    if has("object") && has("livemode") { return firstIsEvent(text) ? .stripeEvents : .stripeObjects }
    if has("transactionId") || has("originalTransactionId") || has("signedTransactionInfo")
      || has("signedPayload")
    {
      return .appStoreTransactions
    }
    // A JSON string holding a compact JWS (`"eyJ….….…"`).
    if text.hasPrefix("\"eyJ"), isCompactJWS(text.dropFirst().prefix { $0 != "\"" }) {
      return .appStoreTransactions
    }
    return .unknown
  }

  /// Whether the first JSON line of `text` is a Stripe event: its own `"object"` member (the first one
  /// at the top level) is `"event"`.
  static func firstIsEvent(_ text: String) -> Bool {
    let line = Array(text.utf8.prefix { $0 != 0x0A })
    var depth = 0
    var inString = false
    var escaped = false
    var i = 0
    let key = Array("\"object\"".utf8)
    while i < line.count {
      let b = line[i]
      if inString {
        if escaped {
          escaped = false
        } else if b == 0x5C {
          escaped = true
        } else if b == 0x22 {
          inString = false
        }
        i += 1
        continue
      }
      if b == 0x7B || b == 0x5B { depth += 1 }
      if b == 0x7D || b == 0x5D { depth -= 1 }
      if b == 0x22 {
        if depth == 1, line[i...].starts(with: key) {
          var j = i + key.count
          while j < line.count, line[j] == 0x20 || line[j] == 0x09 { j += 1 }
          if j < line.count, line[j] == 0x3A {
            j += 1
            while j < line.count, line[j] == 0x20 || line[j] == 0x09 { j += 1 }
            return line[j...].starts(with: Array("\"event\"".utf8))
          }
        }
        inString = true
      }
      i += 1
    }
    return false
  }

  /// Every short quoted word (`"lineItems"`: letters, digits, `_`; at most 40 bytes) of `bytes`.
  static func quotedWords(_ bytes: [UInt8]) -> Set<String> {
    var words = Set<String>()
    var i = 0
    while i < bytes.count {
      guard bytes[i] == 0x22 else {
        i += 1
        continue
      }
      var j = i + 1
      while j < bytes.count, j - i <= 41, isWordByte(bytes[j]) { j += 1 }
      if j < bytes.count, bytes[j] == 0x22, j > i + 1 {
        words.insert(String(decoding: bytes[(i + 1)..<j], as: UTF8.self))
        i = j + 1
      } else {
        i = j
      }
    }
    return words
  }

  static func isWordByte(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
  }

  /// `header.payload.signature` in base64url, the header starting `eyJ` (`{"`).
  static func isCompactJWS(_ line: Substring) -> Bool {
    guard line.hasPrefix("eyJ") else { return false }
    let parts = line.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count > 8, parts[1].count > 8 else { return false }
    return line.unicodeScalars.allSatisfy {
      ($0 >= "A" && $0 <= "Z") || ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-"
        || $0 == "_" || $0 == "." || $0 == "="
    }
  }

  /// A header row (tab- or comma-separated) by its column names.
  static func header(_ line: String) -> RecognisedInput {
    let separator: Character = line.contains("\t") ? "\t" : ","
    let names = Set(
      line.split(separator: separator, omittingEmptySubsequences: false).map { cell in
        CSVReader.key(String(cell.filter { $0 != "\"" }))
      })
    func has(_ wanted: String...) -> Bool { wanted.allSatisfy { names.contains($0) } }
    if has("start date", "end date", "partner share", "extended partner share") { return .appleFinancial }
    if has("event date", "subscriber id", "developer proceeds") { return .appleSubscriber }
    if has("product type identifier", "units", "developer proceeds", "begin date") { return .appleSales }
    if has("transaction date", "transaction type", "amount (merchant currency)") { return .playEarnings }
    if has("order number", "financial status") { return .playSales }
    if has("balance_transaction_id", "reporting_category") { return .stripeBalance }
    if has("entitlement_id", "user_id") { return .appEntitlements }
    if has("credit_id", "transaction_id") { return .appCredits }
    if has("notification_id", "payload") { return .appNotifications }
    if has("grant_id", "user_id") { return .appGoodwill }
    if has("experiment_id", "arm_id", "user_id") { return .appAssignments }
    if has("store", "store_key", "user_id", "claimed_at") { return .appCredentials }
    return .unknown
  }
}
