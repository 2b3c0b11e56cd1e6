import Foundation
package import StoreReconCore
package import StoreReconReports
package import StoreReconIO
package import StoreReconSettings

/// The job's JSON configuration. Paths inside it are relative to the config file's folder.
package struct RunConfig: Sendable {
  /// Folder the config file lives in; relative paths resolve against it.
  package var baseDirectory: String
  /// IANA time zone of the report day (`--date` and revenue days); UTC by default.
  package var timeZone = "UTC"
  /// `docsBaseURL`: what the reports' `docs` links start with (then `rules.md#…`); `docs/` by default,
  /// relative to the project's docs folder. A team sets its own hosted copy of docs/.
  package var docsBaseURL = NextStep.defaultDocsBase
  /// App Store JSON Lines of decoded transactions or JWS (glob patterns).
  package var appStoreTransactions: [String] = []
  /// Apple Summary Sales reports (`S_D_<vendor>_<YYYYMMDD>.txt[.gz]`, glob patterns).
  package var appStoreSalesReports: [String] = []
  /// Apple Subscriber reports (glob patterns).
  package var appStoreSubscriberReports: [String] = []
  /// Apple Financial report details (glob patterns).
  package var appStoreFinancialReports: [String] = []
  /// Apple financial summaries, `financial_report.csv` of Payments and Financial Reports (glob patterns).
  package var appStoreFinancialSummaries: [String] = []
  /// IANA time zone of Apple's report days (`appStore.reportTimeZone`): Pacific Time by default.
  package var appStoreReportTimeZone = "America/Los_Angeles"
  /// `appStore.signatures` and `appStore.testRootCertificate` (resolved): RunConfig+Signatures.swift.
  package var appStoreSignatures: SignatureMode = .require
  package var appStoreTestRoot: String?
  /// `appStore.verifiedRecord` (resolved; `nil`: `verified-jws.bin` in the report root) and whether it
  /// is `off`, and `appStore.verifiedRecordKey` (resolved; `nil`: the record's path + `.key`).
  package var appStoreVerifiedRecord: String?
  package var appStoreVerifiedRecordOff = false
  package var appStoreVerifiedRecordKey: String?
  /// Play earnings reports (`PlayApps_YYYYMM.csv`, or the `earnings_YYYYMM_*.zip` holding one).
  package var playEarnings: [String] = []
  /// Play estimated sales reports (glob patterns; `.csv`, `.zip`, `.gz`).
  package var playSales: [String] = []
  /// Play subscriptionsv2 resources as JSON Lines (glob patterns).
  package var playSubscriptions: [String] = []
  /// Play voided purchases as JSON Lines (glob patterns).
  package var playVoided: [String] = []
  /// Stripe API objects as JSON Lines (`stripe.objects`, glob patterns).
  package var stripeObjects: [String] = []
  /// Stripe event records read as Stripe's notification history only (`stripe.events`, glob patterns):
  /// what `fetch stripe` writes to its journal `stripe/events/`.
  package var stripeEvents: [String] = []
  /// Stripe's itemized balance change reports (`stripe.reports`, glob patterns).
  package var stripeReports: [String] = []
  /// The metadata key naming the app's user on a Stripe subscription or customer.
  package var stripeUserMetadataKey = "app_user_id"
  /// App rows from CSV files.
  package var entitlements: String?
  package var credentials: String?
  package var assignments: String?
  package var goodwill: String?
  /// The credits contract's CSV (`app.credits`); with a database, `app.credits` set (to anything) asks
  /// for the credits query.
  package var credits: String?
  /// Whether the config names the credits contract at all (`app.credits`).
  package var readsCredits = false
  /// How long the app may take to credit a consumable purchase, in hours (`creditGraceHours`).
  package var creditGraceHours: Int64 = 6
  /// `app.notifications`: the notification log's CSV (docs/contracts.md#notifications).
  package var notifications: String?
  /// Whether the run reads the notification log (`app.notifications` set; with a database, the
  /// `notifications.sql` query).
  package var readsNotifications = false
  /// `appStore.notificationHistory`: the store's notification history as the fetch writes it.
  package var appStoreNotificationHistory: [String] = []
  /// `notificationAgeHours`: how old an unprocessed or never-received notification must be to be a
  /// finding (6 by default).
  package var notificationAgeHours: Int64 = 6
  /// The app's PostgreSQL database (`app.database`: a libpq URI or keyword string, never with a
  /// password); when set, the app rows come from it and the CSV paths above are not read.
  package var database: String?
  /// `history`: where the run history is kept (docs/history.md); `nil` means the default
  /// (``HistoryLocation/resolve(config:databaseURI:reportRoot:)``).
  package var history: HistoryLocation?
  /// The folder of the contract queries (`app.queries`, relative to the config's folder).
  package var queries: String?
  /// Grace allowance in days per store.
  package var graceDays: [Store: Int64] = [.appStore: 16, .play: 30, .stripe: 0]
  /// Tolerance on instants, in hours.
  package var toleranceHours: Int64 = 24
  /// Product types and billing periods.
  package var catalog = Catalog()
  /// Rounding of computed amounts.
  package var rounding: RoundingRule = .halfEven
  /// Price experiments to read out (empty: no experiment reports).
  package var experiments: [Experiment] = []
  /// Currency of the experiment readout's reporting rows (required with experiments).
  package var reportingCurrency: Currency?
  /// FX table CSV (`date,currency,rate_to_reporting`), relative to the config's folder.
  package var fxRates: String?
  /// The decisions finance made about cases (`decisions`, docs/cases.md#decisionscsv): a CSV file,
  /// `decisions.csv` beside the config by default; a missing file means no decisions.
  package var decisions: String?
  /// Store fee schedule of the readout's proceeds estimates.
  package var fees = FeeSchedule()
  /// The morning e-mail (`"mail"`); `nil` when the config has none.
  package var mail: MailSettings?
  /// `storerecon fetch`'s settings (`"fetch"`, docs/fetch.md); `nil` when the config has none.
  package var fetch: FetchConfig?
  /// Thresholds on findings (`"alerts"`); empty when none.
  package var alerts: [AlertRule] = []
  /// `allowOutside`: inputs may lie outside the config's folder (links followed); without it such a path
  /// is a config error, so a stray `../` or absolute path cannot copy another file into the reports.
  package var allowOutside = false
  /// When an input counts as damaged (`damaged`): more than 1 % of its rows, or 100,000, rejected.
  package var damaged = DamagedRule()
  /// Keys the config has that this version does not know (reported as a warning).
  package var unknownKeys: [String] = []

  /// Creates a config whose relative paths resolve against `baseDirectory`.
  package init(baseDirectory: String) { self.baseDirectory = baseDirectory }

  /// Reads and validates a config file.
  package static func load(path: String) throws(RunError) -> RunConfig {
    let root: [String: Any]
    do {
      root = try ConfigReader.object(atPath: path)
    } catch {
      switch error {
      case .missing: throw RunError(.missingInput, "config file \(path) does not exist")
      case .notJSON(let reason): throw RunError(.config, "config \(path) is not valid JSON: \(reason)")
      case .notObject: throw RunError(.config, "config \(path) must be a JSON object")
      case .repeatedKey(let key):
        throw RunError(.config, "config \(path): key '\(key)' appears twice; write each key once")
      }
    }
    if let problem = ConfigSchema.root.unknownKey(in: root, path: "") {
      throw RunError(.config, "config \(path): \(problem)")
    }
    let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var config = try parse(root, baseDirectory: base, name: path)
    config.applyEnvironment(ProcessInfo.processInfo.environment)
    return config
  }

  /// The environment variable naming the app's database (docs/config.md#environment): where a
  /// deployment keeps the connection string beside its other secrets instead of in the config.
  package static let databaseVariable = "STORERECON_DATABASE_URL"

  /// `STORERECON_DATABASE_URL`, when set and not empty, replaces `app.database` (`--database` still
  /// overrides both); like `app.database` it must not hold a password (PGPASSWORD or ~/.pgpass does).
  package mutating func applyEnvironment(_ environment: [String: String]) {
    if let url = environment[Self.databaseVariable], !url.isEmpty { database = url }
  }

  /// Reads `timeZone` (an IANA zone) and `docsBaseURL` (what the reports' docs links start with).
  static func parseReportKeys(
    _ root: [String: Any], into config: inout RunConfig, fail: (String) -> RunError
  ) throws(RunError) {
    if let tz = root["timeZone"] {
      guard let tz = tz as? String, TimeZone(identifier: tz) != nil else {
        throw fail("timeZone must be an IANA time zone name such as \"UTC\" or \"Europe/Berlin\"")
      }
      config.timeZone = tz
    }
    if let base = root["docsBaseURL"] {
      guard let base = base as? String, !base.isEmpty, !base.contains(where: \.isNewline) else {
        throw fail(
          "docsBaseURL must be a non-empty text such as \"https://wiki.example.com/storerecon/docs/\"")
      }
      config.docsBaseURL = base
    }
  }

  /// Validates a decoded config object.
  package static func parse(_ root: [String: Any], baseDirectory: String, name: String) throws(RunError)
    -> RunConfig
  {
    var config = RunConfig(baseDirectory: baseDirectory)
    func fail(_ what: String) -> RunError { RunError(.config, "config \(name): \(what)") }
    func strings(_ value: Any?, _ key: String) throws(RunError) -> [String] {
      switch value {
      case nil: return []
      case let s as String: return [s]
      case let list as [Any]:
        var out: [String] = []
        for item in list {
          guard let s = item as? String else { throw fail("\(key) must be a path or a list of paths") }
          out.append(s)
        }
        return out
      default: throw fail("\(key) must be a path or a list of paths")
      }
    }
    func object(_ value: Any?, _ key: String) throws(RunError) -> [String: Any] {
      guard let value else { return [:] }
      guard let o = value as? [String: Any] else { throw fail("\(key) must be an object") }
      return o
    }
    func integer(_ value: Any?, _ key: String) throws(RunError) -> Int64? {
      guard let value else { return nil }
      guard !isJSONBool(value), let n = value as? Int, n >= 0 else {
        throw fail("\(key) must be a non-negative whole number")
      }
      return Int64(n)
    }
    if case .object(let known) = ConfigSchema.root {
      config.unknownKeys = root.keys.filter { known[$0] == nil }.sorted()
    }
    try parseReportKeys(root, into: &config, fail: fail)
    try parseInputRules(root, into: &config, fail: fail)  // and `history`
    try parseStoreExports(
      object(root["appStore"], "appStore"), object(root["play"], "play"), into: &config, fail: fail,
      strings: strings)
    try parseStripe(object(root["stripe"], "stripe"), into: &config, fail: fail, strings: strings)
    let app = try object(root["app"], "app")
    config.entitlements = try strings(app["entitlements"], "app.entitlements").first
    config.credentials = try strings(app["credentials"], "app.credentials").first
    config.assignments = try strings(app["assignments"], "app.assignments").first
    config.goodwill = try strings(app["goodwill"], "app.goodwill").first
    if let database = app["database"] {
      guard let text = database as? String else { throw fail("app.database must be a connection string") }
      config.database = text
    }
    if let queries = app["queries"] {
      guard let text = queries as? String else { throw fail("app.queries must be a folder path") }
      config.queries = config.resolve(text)
    }
    let grace = try object(root["graceDays"], "graceDays")
    for (key, value) in grace {
      guard let store = Store(rawValue: key) else { throw fail("graceDays has unknown store '\(key)'") }
      config.graceDays[store] = try integer(value, "graceDays.\(key)")
    }
    if let hours = try integer(root["toleranceHours"], "toleranceHours") { config.toleranceHours = hours }
    if let rounding = root["rounding"] {
      guard let r = rounding as? String, let rule = RoundingRule(rawValue: r) else {
        throw fail("rounding must be one of half_even, half_up, down")
      }
      config.rounding = rule
    }
    try parseCatalog(object(root["catalog"], "catalog"), into: &config, fail: fail)
    try parseCredits(root, app, into: &config, fail: fail)
    try parseExperimentKeys(root, into: &config, name: name)
    try parseStripeFee(root, into: &config, name: name)
    try parseSettings(root, into: &config, name: name, fail: fail)
    return config
  }

  /// Reads `mail`, `fetch`, `alerts` and `decisions`.
  static func parseSettings(
    _ root: [String: Any], into config: inout RunConfig, name: String, fail: (String) -> RunError
  ) throws(RunError) {
    let baseDirectory = config.baseDirectory
    config.mail = try viaMail { () throws(MailError) in
      try MailSettings.parse(root["mail"], baseDirectory: baseDirectory, name: name)
    }
    config.fetch = try parseFetch(root["fetch"], baseDirectory: baseDirectory, name: name)
    config.alerts = try parseAlerts(
      root["alerts"], name: name, hasFX: config.fxRates != nil && config.reportingCurrency != nil)
    try parseDecisions(root["decisions"], into: &config, fail: fail)
  }

  /// Reads `appStore` and `play`: the stores' exports and reports (lists of glob patterns) and Apple's
  /// report time zone.
  /// Reads the `stripe` section: its objects, events and balance reports, and the metadata key.
  static func parseStripe(
    _ stripe: [String: Any], into config: inout RunConfig, fail: (String) -> RunError,
    strings: (Any?, String) throws(RunError) -> [String]
  ) throws(RunError) {
    config.stripeObjects = try strings(stripe["objects"], "stripe.objects")
    config.stripeReports = try strings(stripe["reports"], "stripe.reports")
    config.stripeEvents = try strings(stripe["events"], "stripe.events")
    if let key = stripe["userMetadataKey"] {
      guard let text = key as? String, !text.isEmpty else {
        throw fail("stripe.userMetadataKey must be a metadata key such as \"app_user_id\"")
      }
      config.stripeUserMetadataKey = text
    }
  }

  package static func parseStoreExports(
    _ appStore: [String: Any], _ play: [String: Any], into config: inout RunConfig,
    fail: (String) -> RunError, strings: (Any?, String) throws(RunError) -> [String]
  ) throws(RunError) {
    config.appStoreTransactions = try strings(appStore["transactions"], "appStore.transactions")
    config.appStoreNotificationHistory = try strings(
      appStore["notificationHistory"], "appStore.notificationHistory")
    config.appStoreSalesReports = try strings(appStore["salesReports"], "appStore.salesReports")
    config.appStoreSubscriberReports = try strings(
      appStore["subscriberReports"], "appStore.subscriberReports")
    config.appStoreFinancialReports = try strings(appStore["financialReports"], "appStore.financialReports")
    config.appStoreFinancialSummaries = try strings(
      appStore["financialSummaries"], "appStore.financialSummaries")
    if let zone = appStore["reportTimeZone"] {
      guard let zone = zone as? String, TimeZone(identifier: zone) != nil else {
        throw fail("appStore.reportTimeZone must be an IANA time zone name such as \"America/Los_Angeles\"")
      }
      config.appStoreReportTimeZone = zone
    }
    try parseSignatures(appStore, into: &config, fail: fail)
    config.playSales = try strings(play["sales"], "play.sales")
    config.playSubscriptions = try strings(play["subscriptions"], "play.subscriptions")
    config.playVoided = try strings(play["voided"], "play.voided")
    config.playEarnings = try strings(play["earnings"], "play.earnings")
  }

  /// Reads `fetch` (docs/fetch.md); `nil` when the config has none.
  package static func parseFetch(_ value: Any?, baseDirectory: String, name: String) throws(RunError)
    -> FetchConfig?
  {
    do {
      return try FetchConfig.parse(value, baseDirectory: baseDirectory, name: name)
    } catch {
      throw RunError(kind: error.kind, error.message)
    }
  }

  /// Whether the config names any of the stores' own money reports.
  package var hasStoreReports: Bool {
    !(appStoreSalesReports.isEmpty && appStoreSubscriberReports.isEmpty && appStoreFinancialReports.isEmpty
      && appStoreFinancialSummaries.isEmpty && playEarnings.isEmpty && stripeReports.isEmpty)
  }

  /// Stores for which the config names at least one export.
  package var storesWithExports: Set<Store> {
    var stores = Set<Store>()
    // The notification log and the store's history carry App Store transactions as well.
    if !appStoreTransactions.isEmpty || readsNotifications || !appStoreNotificationHistory.isEmpty {
      stores.insert(.appStore)
    }
    if !(playSales.isEmpty && playSubscriptions.isEmpty && playVoided.isEmpty) { stores.insert(.play) }
    if !stripeObjects.isEmpty { stores.insert(.stripe) }
    return stores
  }

  /// `path` resolved against the config's folder (absolute paths stay as they are).
  /// Reads `decisions`: the path of the decisions file (docs/cases.md#decisionscsv), `decisions.csv`
  /// beside the config by default.
  static func parseDecisions(_ value: Any?, into config: inout RunConfig, fail: (String) -> RunError)
    throws(RunError)
  {
    guard let value else {
      config.decisions = config.resolve("decisions.csv")
      return
    }
    guard let text = value as? String, !text.isEmpty else {
      throw fail(
        "decisions must be the path of a CSV file (key, decision, reason, by, until, max_amount_minor)")
    }
    config.decisions = config.resolve(text)
  }

  package func resolve(_ path: String) -> String {
    path.hasPrefix("/") ? path : URL(fileURLWithPath: baseDirectory).appendingPathComponent(path).path
  }
}
