import StoreReconCore

/// Writing Play `subscriptionsv2` resources in the realistic world: the fields Google sends beyond the
/// ones the rules read (`etag`, `offerTags`, cancellation survey, pause and acknowledgement states,
/// the profile id), timestamps as protobuf's JSON writes them, a share re-serialized with spaces.
extension DemoOutputs {
  /// Writes the realistic resource of `chain`.
  func writeRealisticResource(_ chain: DemoChain, style: DemoStyle, mayTruncate: Bool) throws {
    guard let token = chain.token, let last = chain.periods.last, let first = chain.periods.first else {
      return
    }
    let expiry = chain.playExpiry
    let active = !chain.pending && chain.autoRenew && (expiry.map { $0 > t } ?? false)
    // An auto-renewing subscription that lapsed in the last weeks may be paused rather than expired.
    let onHold = chain.isOnHold(at: t)
    let paused =
      !onHold && !chain.pending && chain.autoRenew && !chain.replaced && !last.isTrial
      && (expiry.map { $0 <= t && $0 > t.adding(days: -60) } ?? false) && style.rng.chance(300)
    let state: String
    if chain.pending {
      state = "SUBSCRIPTION_STATE_PENDING"
    } else if onHold {
      state = "SUBSCRIPTION_STATE_ON_HOLD"
    } else if let expiry, expiry > t {
      state = active ? "SUBSCRIPTION_STATE_ACTIVE" : "SUBSCRIPTION_STATE_CANCELED"
    } else {
      state = paused ? "SUBSCRIPTION_STATE_PAUSED" : "SUBSCRIPTION_STATE_EXPIRED"
    }
    var m = DemoJSONMembers()
    m.text("kind", "androidpublisher#subscriptionPurchaseV2")
    m.text("regionCode", chain.country.alpha2)
    m.raw(
      "lineItems",
      bytes: lineItems(
        chain, last: last, first: first, active: active, paused: paused || onHold, style: style))
    if !chain.pending { m.raw("startTime", bytes: timestamp(first.start, style)) }
    m.text("subscriptionState", state)
    if let linked = chain.linkedToken { m.text("linkedPurchaseToken", linked) }
    if paused, let expiry {
      m.raw(
        "pausedStateContext",
        bytes: object(style) {
          $0.raw(
            "autoResumeTime",
            bytes: timestamp(
              DemoCalendar.addMonths(expiry, 1 + style.rng.below(3)), style))
        })
    }
    if !chain.pending && !active && !paused && !onHold {
      m.raw("canceledStateContext", bytes: canceledContext(chain, last: last, style: style))
    }
    if chain.sandbox { m.raw("testPurchase", "{}") }
    m.text(
      "acknowledgementState",
      chain.pending ? "ACKNOWLEDGEMENT_STATE_PENDING" : "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED")
    if let account = chain.accountToken {
      m.raw(
        "externalAccountIdentifiers",
        bytes: object(style) {
          $0.text("obfuscatedExternalAccountId", account)
          if style.rng.chance(400) {
            $0.text("obfuscatedExternalProfileId", "profile-" + String(account.prefix(8)))
          }
        })
    }
    // An opaque token (the API documents no form; no quotes, so no escapes: those are rare, in free text).
    m.text("etag", "AEa" + String(first.start.ms &* 2_654_435_761 & 0xFFFF_FFFF_FFFF, radix: 36))
    var members = DemoJSONMembers()
    let tokenFirst = style.rng.chance(600)
    if tokenFirst { members.text("purchaseToken", token) }
    for member in m.members { members.raw(member.name, bytes: member.value) }
    if !tokenFirst { members.text("purchaseToken", token) }
    line.reset()
    members.write(style.rng.chance(150) ? .sorted : .asAdded, into: &line, &style.rng)
    if style.rng.chance(300) { line.bytes = DemoStyle.spaced(line.bytes) }
    try writeJSON(subscriptions, mayTruncate: mayTruncate)
  }

  private func lineItems(
    _ chain: DemoChain, last: DemoPeriod, first: DemoPeriod, active: Bool, paused: Bool, style: DemoStyle
  ) -> [UInt8] {
    var item = DemoJSONMembers()
    item.text("productId", last.product.playSku)
    if let expiry = chain.playExpiry {
      item.raw("expiryTime", bytes: timestamp(expiry, style))
    }
    let amount = chain.country.playAmounts(last.product.tier).item
    let digits = chain.country.currency.minorUnits ?? 2
    let scale = Pow10.int64(digits)
    item.raw(
      "autoRenewingPlan",
      bytes: object(style) { plan in
        plan.raw("autoRenewEnabled", active || paused ? "true" : "false")
        plan.raw(
          "recurringPrice",
          bytes: object(style) {
            $0.text("currencyCode", chain.country.currency.code)
            $0.text("units", String(amount / scale))
            $0.int("nanos", amount % scale * Pow10.int64(9 - digits))
          })
        if let counts = chain.installmentCounts {
          plan.raw(
            "installmentDetails",
            bytes: object(style) {
              $0.int("initialCommittedPaymentsCount", Int64(counts.initial))
              $0.int("remainingCommittedPaymentsCount", Int64(counts.remaining))
            })
        }
      })
    item.raw(
      "offerDetails",
      bytes: object(style) {
        $0.text("basePlanId", last.product.playBasePlan)
        if first.isTrial {
          $0.text("offerId", "trial-7d")
          $0.raw("offerTags", "[\"intro\",\"paywall-2026\"]")
        } else {
          $0.raw("offerTags", "[\"pro\"]")
        }
      })
    item.raw("offerPhase", last.isTrial ? "{\"freeTrial\":{}}" : "{\"basePrice\":{}}")
    if chain.playExpiry != nil { item.text("latestSuccessfulOrderId", last.orderId) }
    var bytes: [UInt8] = [0x5B]
    var rendered = DemoLine()
    item.write(.asAdded, into: &rendered, &style.rng)
    bytes += rendered.bytes
    bytes.append(0x5D)
    return bytes
  }

  private func canceledContext(_ chain: DemoChain, last: DemoPeriod, style: DemoStyle) -> [UInt8] {
    if chain.replaced { return Array("{\"replacementCancellation\":{}}".utf8) }
    switch style.rng.weighted([700, 200, 100]) {
    case 0:
      return object(style) { context in
        context.raw(
          "userInitiatedCancellation",
          bytes: object(style) {
            $0.raw(
              "cancelTime", bytes: timestamp(min(last.start.adding(days: 1), t.adding(ms: -1000)), style))
            if style.rng.chance(400) {
              let reason = style.rng.pick([
                "CANCEL_SURVEY_REASON_NOT_ENOUGH_USAGE", "CANCEL_SURVEY_REASON_COST_RELATED",
                "CANCEL_SURVEY_REASON_FOUND_BETTER_APP", "CANCEL_SURVEY_REASON_OTHERS",
              ])
              var survey = "{\"reason\":\"" + reason + "\""
              if reason.hasSuffix("OTHERS") {
                survey += ",\"reasonUserInput\":\"too pricey, \\\"sorry\\\" – à bientôt\""
              }
              $0.raw("cancelSurveyResult", survey + "}")
            }
          })
      }
    case 1: return Array("{\"systemInitiatedCancellation\":{}}".utf8)
    default: return Array("{\"developerInitiatedCancellation\":{}}".utf8)
    }
  }

  /// A JSON string of an RFC 3339 timestamp as Google writes it.
  private func timestamp(_ instant: Instant, _ style: DemoStyle) -> [UInt8] {
    var text = DemoLine()
    text.byte(0x22)
    style.playTimestamp(instant, into: &text)
    text.byte(0x22)
    return text.bytes
  }

  /// A JSON object built by `fill`, members as added.
  private func object(_ style: DemoStyle, _ fill: (inout DemoJSONMembers) -> Void) -> [UInt8] {
    var members = DemoJSONMembers()
    fill(&members)
    var text = DemoLine()
    members.write(.asAdded, into: &text, &style.rng)
    return text.bytes
  }
}
