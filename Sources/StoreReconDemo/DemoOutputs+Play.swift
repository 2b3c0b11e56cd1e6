import StoreReconCore

/// Writing Play chains: estimated sales report rows (one file per month), subscriptionsv2 resources
/// and voided purchases.
extension DemoOutputs {
  private static let devices = ["d2x", "oriole", "panther", "a52q", "x1q", "beyond1", "husky", "dm3q"]

  func writePlay(_ chain: DemoChain, mayTruncate: Bool, clean: Bool, _ rng: inout DemoRandom) throws {
    let device = DemoOutputs.devices[rng.below(DemoOutputs.devices.count)]
    if !chain.sandbox && !chain.pending {
      for p in chain.periods where !p.isTrial {
        try writeSalesRow(chain, p, refund: false, at: p.start, device: device)
        if let r = p.revocation, r.kind.hasSalesRefundRow {
          try writeSalesRow(chain, p, refund: true, at: r.at, device: device)
        } else if let r = p.revocation, r.kind == .playEarningsRefund {
          // Refunded in Play Console: the earnings report's `Charge refund` alone shows it.
          reports.recordPlaySale(chain, p, refund: true, at: r.at, device: device, inSales: false)
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
    if chain.hasResource {
      if let style {
        try writeRealisticResource(chain, style: style, mayTruncate: mayTruncate)
      } else {
        try writeResource(chain, mayTruncate: mayTruncate)
      }
    }
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
    let earningsLacks = refund && p.revocation?.kind == .playRefundRowOnly
    reports.recordPlaySale(chain, p, refund: refund, at: at, device: device, inEarnings: !earningsLacks)
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
    line.csv(style == nil ? product.playTitle : product.realisticPlayTitle)
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
    let onHold = chain.isOnHold(at: t)
    if chain.pending {
      state = "SUBSCRIPTION_STATE_PENDING"
    } else if onHold {
      state = "SUBSCRIPTION_STATE_ON_HOLD"
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
    appendAutoRenewingPlan(chain, enabled: active || onHold)
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
    if !chain.pending && !active && !onHold {
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
}
