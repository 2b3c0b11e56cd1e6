/// The demo's output files, and how one group's chains and rows are written to them.
///
/// Everything streams: a group is written as soon as it is built, through buffered writers. A few
/// lines are malformed on purpose (a truncated copy of a clean JSON line per JSONL input); they are
/// counted per file so the truth can say how many rejects each input must produce.
final class DemoOutputs {
  static let applePath = "exports/apple/transactions.jsonl"
  static let subscriptionsPath = "exports/play/subscriptions.jsonl"
  static let voidedPath = "exports/play/voided.jsonl"
  static let entitlementsPath = "app/entitlements.csv"
  static let credentialsPath = "app/credentials.csv"
  static let assignmentsPath = "app/assignments.csv"
  static let goodwillPath = "app/goodwill.csv"

  /// The 25 columns of a Play estimated sales report, in Google's order.
  static let salesHeader: StaticString =
    "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Device Model,Product Title,Product ID,Product Type,SKU ID,Currency of Sale,Item Price,Taxes Collected,Charged Amount,City of Buyer,State of Buyer,Postal Code of Buyer,Country of Buyer,Base Plan ID,Offer ID,Group ID,First USD 1M Eligible,Promotion ID,Coupon Value,Discount Rate,Featured Product ID\n"

  let directory: String
  let t: Instant
  /// Malformed lines written so far, per relative path.
  private(set) var rejects: [String: Int] = [:]

  private let apple: DemoFileWriter
  private let subscriptions: DemoFileWriter
  private let voided: DemoFileWriter
  private let entitlements: DemoFileWriter
  private let credentials: DemoFileWriter
  private let assignments: DemoFileWriter
  private let goodwill: DemoFileWriter
  private var sales: [Int: DemoFileWriter] = [:]
  private var line = DemoLine()
  private var payload = DemoLine()
  /// Truncated copies are taken from clean groups at or after this user index.
  private let truncateFrom: Int
  private var truncated: Set<String> = []

  init(directory: String, t: Instant, users: Int) throws {
    self.directory = directory
    self.t = t
    truncateFrom = users / 3
    apple = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.applePath)
    subscriptions = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.subscriptionsPath)
    voided = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.voidedPath)
    entitlements = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.entitlementsPath)
    credentials = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.credentialsPath)
    assignments = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.assignmentsPath)
    goodwill = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.goodwillPath)
    for writer in [apple, subscriptions, voided, entitlements, credentials, assignments, goodwill] {
      rejects[writer.relativePath] = 0
    }
    try entitlements.write(
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n")
    try credentials.write("store,store_key,user_id,linked_store_key,order_id,claimed_at\n")
    try assignments.write("user_id,experiment_id,arm_id,assigned_at\n")
    try goodwill.write("grant_id,user_id,product_id,starts_at,ends_at,reason\n")
  }

  /// Writes one group: its chains' store records, then its app rows.
  func emit(_ group: DemoGroup, userIndex: Int, _ rng: inout DemoRandom) throws {
    let clean = group.planted.isEmpty
    let mayTruncate = clean && userIndex >= truncateFrom
    for chain in group.chains {
      if chain.store == .appStore {
        for index in chain.periods.indices {
          try writeApple(chain, index, mayTruncate: mayTruncate, &rng)
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
      line.iso(a.assignedAt)
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
      line.iso(g.startsAt)
      line.byte(0x2C)
      line.iso(g.endsAt)
      line.byte(0x2C)
      line.csv(g.reason)
      try goodwill.writeLine(line)
    }
  }

  /// Writes `line` to `writer`; the first eligible time per file, also a truncated copy of it.
  private func writeJSON(_ writer: DemoFileWriter, mayTruncate: Bool) throws {
    try writer.writeLine(line)
    guard mayTruncate, !truncated.contains(writer.relativePath), line.bytes.first == 0x7B else { return }
    truncated.insert(writer.relativePath)
    try writer.write(bytes: line.bytes[0..<(line.bytes.count / 2)])
    try writer.write("\n")
    rejects[writer.relativePath, default: 0] += 1
  }

  // MARK: - App Store

  private func writeApple(_ chain: DemoChain, _ index: Int, mayTruncate: Bool, _ rng: inout DemoRandom) throws
  {
    let p = chain.periods[index]
    let first = chain.periods[0]
    let digits = chain.country.currency.minorUnits ?? 2
    payload.reset()
    payload.raw("{\"transactionId\":")
    payload.json(p.transactionId)
    payload.raw(",\"originalTransactionId\":")
    payload.json(chain.key)
    if p.product.isSubscription {
      payload.raw(",\"webOrderLineItemId\":")
      payload.json(p.webOrderLineItemId)
    }
    payload.raw(",\"bundleId\":\"com.acme.app\",\"productId\":")
    payload.json(p.product.name)
    if p.product.isSubscription { payload.raw(",\"subscriptionGroupIdentifier\":\"21034567\"") }
    payload.raw(",\"purchaseDate\":")
    payload.int(p.start.ms)
    payload.raw(",\"originalPurchaseDate\":")
    payload.int(first.start.ms)
    if let end = p.end {
      payload.raw(",\"expiresDate\":")
      payload.int(end.ms)
    }
    payload.raw(",\"quantity\":")
    payload.int(p.quantity)
    payload.raw(",\"type\":")
    payload.json(p.product.appleType)
    if let token = chain.accountToken {
      payload.raw(",\"appAccountToken\":")
      payload.json(token)
    }
    payload.raw(
      chain.familyShared
        ? ",\"inAppOwnershipType\":\"FAMILY_SHARED\"" : ",\"inAppOwnershipType\":\"PURCHASED\"")
    payload.raw(",\"signedDate\":")
    let signed = max(p.start, p.revocation?.at ?? p.start).adding(ms: rng.int64(200, 4000))
    payload.int(min(signed, t.adding(ms: -1)).ms)
    payload.raw(chain.sandbox ? ",\"environment\":\"Sandbox\"" : ",\"environment\":\"Production\"")
    let renewal = index > 0 && !chain.periods[index - 1].isUpgraded && p.product.isSubscription
    payload.raw(renewal ? ",\"transactionReason\":\"RENEWAL\"" : ",\"transactionReason\":\"PURCHASE\"")
    payload.raw(",\"storefront\":")
    payload.json(chain.country.alpha3)
    payload.raw(",\"storefrontId\":")
    payload.json(chain.country.storefrontId)
    payload.raw(",\"price\":")
    payload.int(p.priceMinor * Pow10.int64(3 - digits))
    payload.raw(",\"currency\":")
    payload.json(chain.country.currency.code)
    if p.isTrial {
      payload.raw(",\"offerType\":1,\"offerDiscountType\":\"FREE_TRIAL\",\"offerPeriod\":\"P1W\"")
    }
    if let revocation = p.revocation {
      payload.raw(",\"revocationDate\":")
      payload.int(revocation.at.ms)
      switch revocation.kind {
      case .refundProrated(let share):
        payload.raw(
          ",\"revocationReason\":0,\"revocationType\":\"REFUND_PRORATED\",\"revocationPercentage\":")
        payload.int(share)
      case .familyRevoke:
        payload.raw(",\"revocationType\":\"FAMILY_REVOKE\"")
      default:
        payload.raw(rng.chance(300) ? ",\"revocationReason\":1" : ",\"revocationReason\":0")
        payload.raw(",\"revocationType\":\"REFUND_FULL\"")
      }
    }
    if p.isUpgraded { payload.raw(",\"isUpgraded\":true") }
    payload.raw("}")
    line.reset()
    if rng.chance(50) {
      DemoJWS.wrap(payload.bytes, into: &line, &rng)
    } else {
      line.bytes.append(contentsOf: payload.bytes)
    }
    try writeJSON(apple, mayTruncate: mayTruncate)
  }

  // MARK: - Play

  private static let devices = ["d2x", "oriole", "panther", "a52q", "x1q", "beyond1", "husky", "dm3q"]

  private func writePlay(_ chain: DemoChain, mayTruncate: Bool, clean: Bool, _ rng: inout DemoRandom) throws {
    let device = DemoOutputs.devices[rng.below(DemoOutputs.devices.count)]
    if !chain.sandbox && !chain.pending {
      for p in chain.periods where !p.isTrial {
        try writeSalesRow(chain, p, refund: false, at: p.start, device: device)
        if let r = p.revocation, r.kind == .playRefundRow || r.kind == .playRefundAndVoid {
          try writeSalesRow(chain, p, refund: true, at: r.at, device: device)
        }
      }
    }
    for p in chain.periods {
      guard let r = p.revocation, r.kind == .playVoid || r.kind == .playRefundAndVoid, let token = chain.token
      else {
        continue
      }
      line.reset()
      line.raw("{\"purchaseToken\":")
      line.json(token)
      line.raw(",\"orderId\":")
      line.json(p.orderId)
      line.raw(",\"purchaseTimeMillis\":\"")
      line.int(p.start.ms)
      line.raw("\",\"voidedTimeMillis\":\"")
      line.int(r.at.ms)
      line.raw("\",\"voidedSource\":")
      line.int(rng.below(3))
      line.raw(",\"voidedReason\":")
      line.int(rng.pick([0, 1, 4, 7]))
      line.raw(",\"kind\":\"androidpublisher#voidedPurchase\"}")
      try writeJSON(voided, mayTruncate: clean)  // voids are rare: the first clean one will do
    }
    if chain.hasResource { try writeResource(chain, mayTruncate: mayTruncate) }
  }

  private func salesWriter(for at: Instant) throws -> DemoFileWriter {
    let date = DemoCalendar.date(at)
    let month = date.year * 100 + date.month
    if let writer = sales[month] { return writer }
    let writer = try DemoFileWriter(directory: directory, relativePath: DemoOutputs.salesPath(month))
    try writer.write(DemoOutputs.salesHeader)
    sales[month] = writer
    rejects[writer.relativePath] = 0
    return writer
  }

  /// `exports/play/salesreport_YYYYMM.csv`.
  static func salesPath(_ month: Int) -> String { "exports/play/salesreport_\(month).csv" }

  private func writeSalesRow(_ chain: DemoChain, _ p: DemoPeriod, refund: Bool, at: Instant, device: String)
    throws
  {
    let amounts = chain.country.playAmounts(p.product.tier)
    let currency = chain.country.currency
    try writeSalesRow(
      order: p.orderId, at: at, status: refund ? "Refund" : "Charged", device: device, product: p.product,
      currency: currency.code, item: currency.format(amounts.item), tax: currency.format(amounts.tax),
      charged: currency.format(amounts.charged), country: chain.country.alpha2)
  }

  /// Writes one sales row with the given amount texts (the malformed rows pass texts a currency forbids).
  func writeSalesRow(
    order: String, at: Instant, status: String, device: String, product: DemoProduct, currency: String,
    item: String, tax: String, charged: String, country: String
  ) throws {
    line.reset()
    line.text(order)
    line.byte(0x2C)
    line.date(at)
    line.byte(0x2C)
    line.int(at.ms.floorDivided(by: 1000).quotient)
    line.byte(0x2C)
    line.text(status)
    line.byte(0x2C)
    line.text(device)
    line.byte(0x2C)
    line.csv(product.playTitle)
    line.raw(",com.acme.app,")
    line.text(product.playProductType)
    line.byte(0x2C)
    line.text(product.playSku)
    line.byte(0x2C)
    line.csv(currency)
    line.byte(0x2C)
    line.text(item)
    line.byte(0x2C)
    line.text(tax)
    line.byte(0x2C)
    line.text(charged)
    line.raw(",,,,")
    line.text(country)
    line.byte(0x2C)
    line.text(product.playBasePlan)
    line.raw(",,5123894410276633218,Yes,,,,")
    try salesWriter(for: at).writeLine(line)
  }

  private func writeResource(_ chain: DemoChain, mayTruncate: Bool) throws {
    guard let token = chain.token, let last = chain.periods.last, let first = chain.periods.first else {
      return
    }
    let expiry = chain.playExpiry
    let state: StaticString
    let active = !chain.pending && chain.autoRenew && (expiry.map { $0 > t } ?? false)
    if chain.pending {
      state = "SUBSCRIPTION_STATE_PENDING"
    } else if let expiry, expiry > t {
      state = active ? "SUBSCRIPTION_STATE_ACTIVE" : "SUBSCRIPTION_STATE_CANCELED"
    } else {
      state = "SUBSCRIPTION_STATE_EXPIRED"
    }
    line.reset()
    line.raw("{\"purchaseToken\":")
    line.json(token)
    line.raw(",\"kind\":\"androidpublisher#subscriptionPurchaseV2\",\"regionCode\":")
    line.json(chain.country.alpha2)
    if !chain.pending {
      line.raw(",\"startTime\":\"")
      line.iso(first.start)
      line.raw("\"")
    }
    line.raw(",\"subscriptionState\":\"")
    line.raw(state)
    line.raw("\",\"lineItems\":[{\"productId\":")
    line.json(last.product.playSku)
    if let expiry {
      line.raw(",\"expiryTime\":\"")
      line.iso(expiry)
      line.raw("\",\"latestSuccessfulOrderId\":")
      line.json(last.orderId)
    }
    let item = chain.country.playAmounts(last.product.tier).item
    let digits = chain.country.currency.minorUnits ?? 2
    let scale = Pow10.int64(digits)
    line.raw(
      active
        ? ",\"autoRenewingPlan\":{\"autoRenewEnabled\":true"
        : ",\"autoRenewingPlan\":{\"autoRenewEnabled\":false")
    line.raw(",\"recurringPrice\":{\"currencyCode\":")
    line.json(chain.country.currency.code)
    line.raw(",\"units\":\"")
    line.int(item / scale)
    line.raw("\",\"nanos\":")
    line.int(item % scale * Pow10.int64(9 - digits))
    line.raw("}},\"offerDetails\":{\"basePlanId\":")
    line.json(last.product.playBasePlan)
    if first.isTrial { line.raw(",\"offerId\":\"trial-7d\"") }
    line.raw(last.isTrial ? "},\"offerPhase\":{\"freeTrial\":{}}}]" : "},\"offerPhase\":{\"basePrice\":{}}}]")
    if let linked = chain.linkedToken {
      line.raw(",\"linkedPurchaseToken\":")
      line.json(linked)
    }
    if !chain.pending && !active {
      if chain.replaced {
        line.raw(",\"canceledStateContext\":{\"replacementCancellation\":{}}")
      } else {
        line.raw(",\"canceledStateContext\":{\"userInitiatedCancellation\":{\"cancelTime\":\"")
        line.iso(min(last.start.adding(days: 1), t.adding(ms: -1000)))
        line.raw("\"}}")
      }
    }
    line.raw(
      chain.pending
        ? ",\"acknowledgementState\":\"ACKNOWLEDGEMENT_STATE_PENDING\""
        : ",\"acknowledgementState\":\"ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED\"")
    if let account = chain.accountToken {
      line.raw(",\"externalAccountIdentifiers\":{\"obfuscatedExternalAccountId\":")
      line.json(account)
      line.raw("}")
    }
    if chain.sandbox { line.raw(",\"testPurchase\":{}") }
    line.raw("}")
    try writeJSON(subscriptions, mayTruncate: mayTruncate)
  }

  // MARK: - App rows

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
    line.iso(e.startsAt)
    line.byte(0x2C)
    line.iso(e.expiresAt)
    line.byte(0x2C)
    line.iso(e.updatedAt)
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
    line.iso(c.claimedAt)
    try credentials.writeLine(line)
  }

  /// Two sales rows that must be rejected: an amount with more digits than EUR allows, and an unknown
  /// currency. Their order ids belong to no chain.
  func writeMalformedSales(_ ids: inout DemoIdentifiers, _ rng: inout DemoRandom) throws {
    let early = t.adding(days: -40).adding(ms: 37_000)
    try writeSalesRow(
      order: try ids.playOrder(&rng), at: early, status: "Charged", device: "oriole", product: .playMonthly,
      currency: "EUR", item: "4.999", tax: "0.00", charged: "4.999", country: "DE")
    rejects[DemoOutputs.salesPath(DemoOutputs.month(early)), default: 0] += 1
    let late = t.adding(days: -5).adding(ms: 51_000)
    try writeSalesRow(
      order: try ids.playOrder(&rng), at: late, status: "Charged", device: "husky", product: .playMonthly,
      currency: "XYZ", item: "4.99", tax: "0.00", charged: "4.99", country: "US")
    rejects[DemoOutputs.salesPath(DemoOutputs.month(late)), default: 0] += 1
  }

  private static func month(_ at: Instant) -> Int {
    let date = DemoCalendar.date(at)
    return date.year * 100 + date.month
  }

  /// Closes every file; returns their relative paths.
  func close() throws -> [String] {
    var paths: [String] = []
    for writer in [apple, subscriptions, voided, entitlements, credentials, assignments, goodwill]
      + sales.values
    {
      try writer.close()
      paths.append(writer.relativePath)
    }
    return paths
  }
}
