import StoreReconCore

/// Writing App Store transactions in the realistic world: every current `JWSTransactionDecodedPayload`
/// field, in one of several key orders, a share with spaces after `:` and `,`, about 5 % as compact JWS.
extension DemoOutputs {
  /// Appends the realistic line of `chain.periods[index]` to `line` and writes it.
  func writeRealisticApple(
    _ chain: DemoChain, _ index: Int, style: DemoStyle, mayTruncate: Bool, _ rng: inout DemoRandom
  ) throws {
    reports.recordApple(chain, index)
    let p = chain.periods[index]
    guard let appleDay else {
      try realisticAppleLine(chain, index, style: style, earlierState: false, &rng)
      try writeJSON(apple, mayTruncate: mayTruncate)
      return
    }
    // fetch's journal: what the report date brought goes into the day's file. A purchase made before it
    // and revoked on it was fetched earlier unrevoked: that earlier state is in the history file (drawn
    // from copies of the random streams, so the world's other choices stay those of the realistic
    // world) and the day's file has its revoked state, which supersedes it in the run.
    let dayStart = t.adding(days: -1)
    if p.start < dayStart, let revocation = p.revocation, revocation.at >= dayStart {
      var spare = rng
      let order = style.rng
      try realisticAppleLine(chain, index, style: style, earlierState: true, &spare)
      style.rng = order
      try writeJSON(apple, mayTruncate: false)
    }
    let at = try realisticAppleLine(chain, index, style: style, earlierState: false, &rng)
    try writeJSON(at >= dayStart ? appleDay : apple, mayTruncate: mayTruncate)
  }

  /// Builds the realistic line of `chain.periods[index]` into `line`: as it is now, or as it was before
  /// its revocation (`earlierState`). Returns the line's `signedDate`.
  @discardableResult
  private func realisticAppleLine(
    _ chain: DemoChain, _ index: Int, style: DemoStyle, earlierState: Bool, _ rng: inout DemoRandom
  ) throws -> Instant {
    let p = chain.periods[index]
    let revocation = earlierState ? nil : p.revocation
    let digits = chain.country.currency.minorUnits ?? 2
    var m = DemoJSONMembers()
    m.text("transactionId", p.transactionId)
    m.text("originalTransactionId", chain.key)
    if p.product.isSubscription { m.text("webOrderLineItemId", p.webOrderLineItemId) }
    m.text("bundleId", "com.acme.app")
    m.text("productId", p.product.name)
    if p.product.isSubscription { m.text("subscriptionGroupIdentifier", "21034567") }
    m.int("purchaseDate", p.start.ms)
    m.int("originalPurchaseDate", chain.periods[0].start.ms)
    if let end = p.end { m.int("expiresDate", end.ms) }
    m.int("quantity", Int64(p.quantity))
    m.text("type", p.product.appleType)
    if let token = chain.accountToken { m.text("appAccountToken", token) }
    m.text("inAppOwnershipType", chain.familyShared ? "FAMILY_SHARED" : "PURCHASED")
    let event = max(p.start, revocation?.at ?? p.start).adding(ms: rng.int64(200, 4000))
    let signed = min(event, t.adding(ms: -1))
    m.int("signedDate", signed.ms)
    if let revocation { appleRevocation(revocation, &m, &rng) }
    if p.isUpgraded { m.raw("isUpgraded", "true") }
    if p.isTrial {
      m.raw("offerType", "1")
      m.text("offerDiscountType", "FREE_TRIAL")
      m.text("offerPeriod", "P1W")
    }
    if let c = p.commitment {
      m.text("billingPlanType", "MONTHLY")
      m.raw(
        "commitmentInfo",
        "{\"billingPeriodNumber\":\(c.number),\"commitmentExpiresDate\":\(c.endsAt.ms),"
          + "\"commitmentPrice\":\(c.priceMinor * Pow10.int64(3 - digits)),\"totalBillingPeriods\":\(c.total)}"
      )
    }
    m.text("environment", chain.sandbox ? "Sandbox" : "Production")
    let renewal = index > 0 && !chain.periods[index - 1].isUpgraded && p.product.isSubscription
    m.text("transactionReason", renewal ? "RENEWAL" : "PURCHASE")
    m.text("storefront", chain.country.alpha3)
    m.text("storefrontId", chain.country.storefrontId)
    m.int("price", p.priceMinor * Pow10.int64(3 - digits))
    m.text("currency", chain.country.currency.code)
    m.text("appTransactionId", DemoOutputs.appTransactionId(of: chain.ownerId))
    payload.reset()
    let order = [DemoJSONMembers.Order.asAdded, .sorted, .secondFirst, .shuffled][
      style.rng.weighted([400, 250, 200, 150])]
    m.write(order, into: &payload, &style.rng)
    if style.rng.chance(250) { payload.bytes = DemoStyle.spaced(payload.bytes) }
    line.reset()
    // As in the classic world, about one line in 20 (each costs an ES256 verification in a run that
    // trusts the demo's test root).
    if rng.chance(50) {
      DemoJWS.wrap(payload.bytes, into: &line, &rng)
    } else if options.allJWS {
      // Signed as well, drawing from a copy: the world's other random choices stay the same.
      var spare = rng
      DemoJWS.wrap(payload.bytes, into: &line, &spare)
    } else {
      line.bytes.append(contentsOf: payload.bytes)
    }
    return signed
  }

  private func appleRevocation(
    _ revocation: DemoRevocation, _ m: inout DemoJSONMembers, _ rng: inout DemoRandom
  ) {
    m.int("revocationDate", revocation.at.ms)
    switch revocation.kind {
    case .refundProrated(let share):
      m.raw("revocationReason", "0")
      m.text("revocationType", "REFUND_PRORATED")
      m.int("revocationPercentage", share)
    case .familyRevoke:
      m.text("revocationType", "FAMILY_REVOKE")
    default:
      m.raw("revocationReason", rng.chance(300) ? "1" : "0")
      m.text("revocationType", "REFUND_FULL")
    }
  }

  /// Apple's `appTransactionId` of the user's app download: the same on every transaction of the user,
  /// 18 digits derived from the user id.
  static func appTransactionId(of userId: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in userId.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
    return String(704_000_000_000_000_000 + hash % 1_000_000_000_000_000)
  }
}
