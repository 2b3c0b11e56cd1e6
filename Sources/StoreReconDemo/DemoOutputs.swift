import StoreReconCore

/// The demo's output files, and how one group's chains and rows are written to them.
///
/// Everything streams: a group is written as soon as it is built, through buffered writers. A few
/// lines are malformed on purpose (a truncated copy of a clean JSON line per JSONL input); they are
/// counted per file so the truth can say how many rejects each input must produce.
final class DemoOutputs {
  static let applePath = "exports/apple/transactions.jsonl"
  /// The all-JWS world keeps the App Store transactions as `storerecon fetch` does: a journal folder
  /// (docs/fetch.md "The transaction journal"), its history up to the report date's start in the first
  /// file and what the report date brought in the second.
  static let journalFolder = "exports/apple/transactions"
  static let journalHistoryPath = "exports/apple/transactions/000000-history.jsonl"
  /// The second journal file: the fetch of the morning after the report date, at 06:00 UTC.
  static func journalDayPath(after asOf: CivilDate) -> String {
    let compact = asOf.next.description.replacingOccurrences(of: "-", with: "")
    return "\(journalFolder)/000001-\(compact)T060000Z.jsonl"
  }
  static let subscriptionsPath = "exports/play/subscriptions.jsonl"
  static let voidedPath = "exports/play/voided.jsonl"
  static let entitlementsPath = "app/entitlements.csv"
  static let credentialsPath = "app/credentials.csv"
  static let assignmentsPath = "app/assignments.csv"
  static let goodwillPath = "app/goodwill.csv"
  static let creditsPath = "app/credits.csv"
  static let notificationsPath = "app/notifications.csv"
  static let notificationHistoryPath = "exports/apple/notification_history.jsonl"

  /// The 25 columns of a Play estimated sales report, in Google's order.
  static let salesHeader: StaticString =
    "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Device Model,Product Title,Product ID,Product Type,SKU ID,Currency of Sale,Item Price,Taxes Collected,Charged Amount,City of Buyer,State of Buyer,Postal Code of Buyer,Country of Buyer,Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,Promotion ID,Coupon Value,Discount Rate,Featured Product ID\n"

  let directory: String
  let t: Instant
  /// The stores' own reports, recorded as the chains are written.
  let reports: DemoStoreReports
  /// Malformed lines written so far, per relative path.
  var rejects: [String: Int] = [:]

  let apple: DemoFileWriter
  /// The all-JWS world's second journal file (what the report date brought); `nil` in the other worlds,
  /// which write one file.
  let appleDay: DemoFileWriter?
  let subscriptions: DemoFileWriter
  let voided: DemoFileWriter
  package let entitlements: DemoFileWriter
  package let credentials: DemoFileWriter
  let assignments: DemoFileWriter
  let goodwill: DemoFileWriter
  let credits: DemoFileWriter
  /// The app's notification log and the store's notification history (the classic world only).
  let notificationLog: DemoFileWriter?
  let notificationHistory: DemoFileWriter?
  /// The notifications of the App Store chain being written.
  var chainNotifications: [DemoNotification] = []
  var sales: [Int: DemoFileWriter] = [:]
  var line = DemoLine()
  var payload = DemoLine()
  /// Truncated copies are taken from clean groups at or after this user index.
  private let truncateFrom: Int
  var truncated: Set<String> = []
  /// The realistic world's forms; `nil` writes the classic demo world's.
  let style: DemoStyle?
  /// The options the world is written with.
  let options: DemoOptions

  init(directory: String, t: Instant, options: DemoOptions, reports: DemoStoreReports) throws {
    self.directory = directory
    self.options = options
    style = options.realistic ? DemoStyle(seed: options.seed) : nil
    self.t = t
    self.reports = reports
    truncateFrom = options.users / 3
    if options.realistic && options.allJWS {
      apple = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.journalHistoryPath)
      appleDay = try DemoFileWriter(
        directory: directory, relativePath: DemoOutputs.journalDayPath(after: options.asOf))
    } else {
      apple = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.applePath)
      appleDay = nil
    }
    subscriptions = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.subscriptionsPath)
    voided = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.voidedPath)
    entitlements = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.entitlementsPath)
    credentials = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.credentialsPath)
    assignments = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.assignmentsPath)
    goodwill = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.goodwillPath)
    credits = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.creditsPath)
    if !options.writesNotificationLog {
      notificationLog = nil
      notificationHistory = nil
    } else {
      notificationLog = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.notificationsPath)
      notificationHistory = try DemoFileWriter(
        directory: directory, relativePath: DemoOutputs.notificationHistoryPath)
      try notificationLog?.write("store,notification_id,received_at,processed_at,payload\n")
    }
    for writer in [apple, subscriptions, voided, entitlements, credentials, assignments, goodwill, credits]
      + [appleDay].compactMap({ $0 })
    {
      rejects[writer.relativePath] = 0
    }
    try entitlements.write(
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n")
    try credentials.write("store,store_key,user_id,linked_store_key,order_id,claimed_at\n")
    try assignments.write("user_id,experiment_id,arm_id,assigned_at\n")
    try goodwill.write("grant_id,user_id,product_id,starts_at,ends_at,reason\n")
    try credits.write(
      "credit_id,user_id,store,transaction_id,product_id,quantity,credited_at,reversed_at\n")
  }

  /// Writes one group: its chains' store records, then its app rows.
  func emit(_ group: DemoGroup, userIndex: Int, _ rng: inout DemoRandom) throws {
    let clean = group.planted.isEmpty
    let mayTruncate = clean && userIndex >= truncateFrom
    for (c, chain) in group.chains.enumerated() {
      if chain.store == .appStore {
        chainNotifications = group.notifications.filter { $0.chain == c }
        for index in chain.periods.indices {
          if let style {
            try writeRealisticApple(chain, index, style: style, mayTruncate: mayTruncate, &rng)
          } else {
            try writeApple(chain, index, mayTruncate: mayTruncate, &rng)
          }
        }
      } else {
        try writePlay(chain, mayTruncate: mayTruncate, clean: clean, &rng)
      }
    }
    for e in group.entitlements { try writeEntitlement(e) }
    for raw in group.rawEntitlementRows {
      try entitlements.write(bytes: raw.utf8)
      try entitlements.write("\n")
      rejects[DemoOutputs.entitlementsPath, default: 0] += 1
    }
    for c in group.credentials { try writeCredential(c) }
    for a in group.assignments {
      line.reset()
      line.csv(a.userId)
      line.byte(0x2C)
      line.csv(a.experimentId)
      line.byte(0x2C)
      line.csv(a.armId)
      line.byte(0x2C)
      timestamp(a.assignedAt)
      try assignments.writeLine(line)
    }
    for g in group.goodwill {
      line.reset()
      line.csv(g.grantId)
      line.byte(0x2C)
      line.csv(g.userId)
      line.byte(0x2C)
      line.csv(g.productId)
      line.byte(0x2C)
      timestamp(g.startsAt)
      line.byte(0x2C)
      timestamp(g.endsAt)
      line.byte(0x2C)
      line.csv(g.reason)
      try goodwill.writeLine(line)
    }
    for c in group.credits { try writeCredit(c) }
  }

  /// Writes `line` to `writer`; the first eligible time per file, also a truncated copy of it.
  func writeJSON(_ writer: DemoFileWriter, mayTruncate: Bool) throws {
    try writer.writeLine(line)
    guard mayTruncate, !truncated.contains(writer.relativePath), line.bytes.first == 0x7B else { return }
    truncated.insert(writer.relativePath)
    try writer.write(bytes: line.bytes[0..<(line.bytes.count / 2)])
    try writer.write("\n")
    rejects[writer.relativePath, default: 0] += 1
  }

  // MARK: - App rows

  /// Appends an app-row timestamp (nothing for `nil`): the classic world's one form, or the realistic
  /// world's mix.
  private func timestamp(_ instant: Instant?) {
    guard let instant else { return }
    if let style {
      style.appTimestamp(instant, into: &line)
    } else {
      line.iso(instant)
    }
  }

  private func writeEntitlement(_ e: DemoEntitlement) throws {
    line.reset()
    line.csv(e.entitlementId)
    line.byte(0x2C)
    line.csv(e.userId)
    line.byte(0x2C)
    line.csv(e.productId)
    line.byte(0x2C)
    line.text(e.source.rawValue)
    line.byte(0x2C)
    line.csv(e.storeKey ?? "")
    line.byte(0x2C)
    line.text(e.status.rawValue)
    line.byte(0x2C)
    timestamp(e.startsAt)
    line.byte(0x2C)
    timestamp(e.expiresAt)
    line.byte(0x2C)
    timestamp(e.updatedAt)
    try entitlements.writeLine(line)
  }

  private func writeCredential(_ c: DemoCredential) throws {
    line.reset()
    line.text(c.store.rawValue)
    line.byte(0x2C)
    line.csv(c.storeKey)
    line.byte(0x2C)
    line.csv(c.userId)
    line.byte(0x2C)
    line.csv(c.linkedStoreKey ?? "")
    line.byte(0x2C)
    line.csv(c.orderId ?? "")
    line.byte(0x2C)
    timestamp(c.claimedAt)
    try credentials.writeLine(line)
  }

  private func writeCredit(_ c: DemoCredit) throws {
    line.reset()
    line.csv(c.creditId)
    line.byte(0x2C)
    line.csv(c.userId)
    line.byte(0x2C)
    line.text(c.store.rawValue)
    line.byte(0x2C)
    line.csv(c.transactionId)
    line.byte(0x2C)
    line.csv(c.productId)
    line.byte(0x2C)
    line.text(String(c.quantity))
    line.byte(0x2C)
    timestamp(c.creditedAt)
    line.byte(0x2C)
    timestamp(c.reversedAt)
    try credits.writeLine(line)
  }

  /// Closes every file; returns their relative paths.
  func close() throws -> [String] {
    var paths: [String] = []
    let optionalFiles = [appleDay, notificationLog, notificationHistory].compactMap { $0 }
    for writer in [apple, subscriptions, voided, entitlements, credentials, assignments, goodwill, credits]
      + optionalFiles + sales.values
    {
      try writer.close()
      paths.append(writer.relativePath)
    }
    return paths
  }
}
