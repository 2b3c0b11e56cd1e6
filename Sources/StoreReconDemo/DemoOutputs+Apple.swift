import StoreReconCore

/// Writing App Store chains: one decoded `JWSTransactionDecodedPayload` per line, about one in 20
/// wrapped as a compact JWS (the realistic world's lines: `DemoOutputs+RealisticApple.swift`).
extension DemoOutputs {
  func writeApple(_ chain: DemoChain, _ index: Int, mayTruncate: Bool, _ rng: inout DemoRandom) throws {
    reports.recordApple(chain, index)
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
    let signed = max(p.start, p.feedState).adding(ms: rng.int64(200, 4000))
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
    if let c = p.commitment {
      payload.raw(",\"billingPlanType\":\"MONTHLY\",\"commitmentInfo\":{\"billingPeriodNumber\":")
      payload.int(Int64(c.number))
      payload.raw(",\"commitmentExpiresDate\":")
      payload.int(c.endsAt.ms)
      payload.raw(",\"commitmentPrice\":")
      payload.int(c.priceMinor * Pow10.int64(3 - digits))
      payload.raw(",\"totalBillingPeriods\":")
      payload.int(Int64(c.total))
      payload.raw("}")
    }
    let revocationStart = payload.bytes.count
    appendRevocation(p, &rng)
    let revocationEnd = payload.bytes.count
    if p.isUpgraded { payload.raw(",\"isUpgraded\":true") }
    payload.raw("}")
    let asBought = Array(payload.bytes[..<revocationStart] + payload.bytes[revocationEnd...])
    try writeNotifications(chain, index, revoked: payload.bytes, asBought: asBought)
    line.reset()
    let feed = p.revocation?.inFeed ?? true ? payload.bytes : asBought
    if rng.chance(50) {
      DemoJWS.wrap(feed, into: &line, &rng)
    } else {
      line.bytes.append(contentsOf: feed)
    }
    try writeJSON(apple, mayTruncate: mayTruncate)
  }

  /// The revocation fields of purchase `p`, if it was revoked.
  private func appendRevocation(_ p: DemoPeriod, _ rng: inout DemoRandom) {
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
  }
}
