// Play `subscriptionsv2` lines: a `SubscriptionPurchaseV2` resource (reference §4.1) with the token it
// was fetched by.
extension LineVariants {
  /// The members the subscription importer reads, at every level.
  static let playKnown = [
    "purchaseToken", "subscriptionState", "startTime", "lineItems", "latestOrderId", "linkedPurchaseToken",
    "externalAccountIdentifiers", "testPurchase", "productId", "expiryTime", "latestSuccessfulOrderId",
    "offerDetails", "offerPhase", "autoRenewingPlan", "basePlanId", "offerId", "freeTrial", "recurringPrice",
    "currencyCode", "units", "nanos", "obfuscatedExternalAccountId",
  ]

  /// Members Google sends that the importer does not read.
  static let playOthers = [
    "kind", "regionCode", "acknowledgementState", "canceledStateContext", "pausedStateContext",
    "prepaidPlan", "offerTags", "priceChangeDetails", "autoRenewEnabled", "obfuscatedExternalProfileId",
    "deferredItemReplacement", "signupPromotion", "outOfAppPurchaseContext",
  ]

  /// An RFC 3339 timestamp in one of the forms Google writes (and others allow).
  static func timestamp(_ r: inout VariantRandom, year: Int = 2026) -> String {
    let fractions = ["", ".0", ".1", ".123", ".000", ".123456", ".123456789"]
    let zones = ["Z", "Z", "Z", "+00:00", "+05:30", "-08:00", "+14:00"]
    let month = 1 + r.below(12)
    let day = 1 + r.below(28)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))T\(two(r.below(24))):\(two(r.below(60))):\(two(r.below(60)))"
      + r.pick(fractions) + r.pick(zones)
  }

  /// A Play order id, sometimes of a renewal (`..N`).
  static func orderId(_ r: inout VariantRandom) -> String {
    let digits = "0123456789"
    let base =
      "GPA.\(r.text(4, from: digits))-\(r.text(4, from: digits))-\(r.text(4, from: digits))-\(r.text(5, from: digits))"
    return r.chance(60) ? base + "..\(r.below(50))" : base
  }

  /// One line item.
  static func lineItem(_ r: inout VariantRandom) -> DraftJSON {
    var members: [(String, DraftJSON)] = [
      ("productId", .string(r.pick(["pro", "pro_yearly", "credits", "com.acme.pro"]))),
      ("expiryTime", .string(timestamp(&r, year: 2026 + r.below(2)))),
      ("latestSuccessfulOrderId", .string(orderId(&r))),
    ]
    let (code, units, nanos) = r.pick([
      ("EUR", "\"33\"", "610000000"), ("USD", "\"4\"", "990000000"), ("JPY", "\"700\"", "0"),
      ("USD", "\"0\"", "0"), ("GBP", "3", "990000000"),
    ])
    let price = DraftJSON.members([
      ("currencyCode", .string(code)), ("units", .literal(units)), ("nanos", .literal(nanos)),
    ])
    if r.chance(85) {
      members.append(
        (
          "autoRenewingPlan",
          .members([
            ("autoRenewEnabled", .literal(r.chance(80) ? "true" : "false")), ("recurringPrice", price),
            (
              "priceChangeDetails",
              .members([("newPrice", price), ("priceChangeMode", .string("OPT_IN_INCREASE"))])
            ),
          ])
        ))
    } else {
      members.append(("prepaidPlan", .members([("allowExtendAfterTime", .string(timestamp(&r)))])))
    }
    var offer: [(String, DraftJSON)] = [("basePlanId", .string(r.pick(["monthly", "yearly", "p1m"])))]
    if r.chance(40) { offer.append(("offerId", .string("trial-7d"))) }
    if r.chance(50) { offer.append(("offerTags", .array([.string("promo"), .string("winback")]))) }
    members.append(("offerDetails", .members(offer)))
    if r.chance(60) {
      members.append(
        (
          "offerPhase",
          r.chance(30) ? .members([("freeTrial", .members([]))]) : .members([("basePrice", .members([]))])
        ))
    }
    return .members(members)
  }

  /// A realistic subscription resource.
  static func playSubscriptionBase(_ r: inout VariantRandom) -> DraftJSON {
    let state = r.pick([
      "SUBSCRIPTION_STATE_ACTIVE", "SUBSCRIPTION_STATE_ACTIVE", "SUBSCRIPTION_STATE_CANCELED",
      "SUBSCRIPTION_STATE_IN_GRACE_PERIOD", "SUBSCRIPTION_STATE_ON_HOLD", "SUBSCRIPTION_STATE_PAUSED",
      "SUBSCRIPTION_STATE_EXPIRED", "SUBSCRIPTION_STATE_PENDING",
      "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED",
    ])
    var members: [(String, DraftJSON)] = [
      ("purchaseToken", .string(r.opaque(r.pick([64, 150, 160])))),
      ("kind", .string("androidpublisher#subscriptionPurchaseV2")), ("regionCode", .string("DE")),
      ("startTime", .string(timestamp(&r, year: 2025))), ("subscriptionState", .string(state)),
      ("lineItems", .array((0..<(1 + r.below(3))).map { _ in lineItem(&r) })),
      ("acknowledgementState", .string("ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED")),
      (
        "externalAccountIdentifiers",
        .members([
          ("obfuscatedExternalAccountId", .string(r.uuid())),
          ("obfuscatedExternalProfileId", .string(r.opaque(32))),
        ])
      ),
    ]
    if r.chance(20) { members.append(("linkedPurchaseToken", .string(r.opaque(150)))) }
    if r.chance(20) { members.append(("latestOrderId", .string(orderId(&r)))) }
    if r.chance(5) { members.append(("testPurchase", .members([]))) }
    if state.hasSuffix("CANCELED") {
      members.append(
        (
          "canceledStateContext",
          .members([("userInitiatedCancellation", .members([("cancelTime", .string(timestamp(&r)))]))])
        ))
    }
    if state.hasSuffix("PAUSED") {
      members.append(("pausedStateContext", .members([("autoResumeTime", .string(timestamp(&r)))])))
    }
    return .members(members)
  }

  /// Values of each kind of subscription member (at any level): valid, odd and invalid forms.
  static let playForms: [(keys: [String], values: [String])] = [
    (
      ["startTime", "expiryTime"],
      [
        "\"2026-03-17T04:18:07Z\"", "\"2026-03-17T04:18:07.1Z\"", "\"2026-03-17T04:18:07.123456789Z\"",
        "\"2026-03-17T04:18:07+05:30\"", "\"2026-03-17T04:18:07-08:00\"", "\"2026-03-17t04:18:07z\"",
        "\"2026-03-17 04:18:07Z\"", "\"2026-03-17T04:18:07\"", "\"2026-02-30T04:18:07Z\"",
        "\"2026-03-17T24:00:00Z\"",
        "\"2026-03-17T23:59:60Z\"", "\"2026-03-17T04:18:07.Z\"", "\"2026-03-17T04:18:07+0530\"",
        "1742185087000", "\"1742185087000\"", "\"\"", "null", "\"9999-12-31T23:59:59Z\"",
        "\"0001-01-01T00:00:00Z\"",
        "\"2026-03-17T04:18:07.1234567891Z\"",
      ]
    ),
    (
      ["units", "nanos"],
      [
        "\"33\"", "33", "\"033\"", "\"-1\"", "3.3", "\"3e1\"", "610000000", "\"610000000\"", "1e9",
        "999999999",
        "1000000000", "-5", "\"\"", "null", "\"9223372036854775807\"", "true", "3.0",
      ]
    ),
    (["currencyCode"], ["\"EUR\"", "\"eur\"", "\"XXX\"", "\"\"", "null", "978"]),
    (
      ["subscriptionState"],
      [
        "\"SUBSCRIPTION_STATE_PENDING\"", "\"SUBSCRIPTION_STATE_ACTIVE\"", "\"subscription_state_pending\"",
        "null", "1",
      ]
    ),
    (
      [
        "purchaseToken", "latestOrderId", "linkedPurchaseToken", "latestSuccessfulOrderId", "productId",
        "basePlanId",
        "offerId", "obfuscatedExternalAccountId",
      ],
      [
        "\"GPA.1234-5678-9012-34567..3\"", "\"GPA.1234-5678-9012-34567\"", "\"\"", "null", "12", "1e2",
        "\"a\"", "{}",
      ]
    ),
    (
      [
        "lineItems", "offerDetails", "offerPhase", "autoRenewingPlan", "recurringPrice",
        "externalAccountIdentifiers",
        "testPurchase", "freeTrial",
      ],
      ["{}", "[]", "null", "\"x\"", "[{}]", "[null]", "false"]
    ),
  ]

  /// The subscription edits: the common ones, and each member's forms at any level.
  static var playSubscriptionEdits: [Edit] {
    var edits = commonEdits(known: playKnown, unknown: playOthers)
    edits.append(
      (
        "field form",
        { d, r in
          let form = r.pick(playForms)
          let key = r.pick(form.keys)
          let value = DraftJSON.literal(r.pick(form.values))
          return d.editingRandomObject(&r) { object, r in
            object.member(key) == nil && r.chance(50) ? object : object.setting(key, value)
          }
        }
      ))
    return edits
  }

  /// Subscription variants: realistic resources with up to three edits each, some broken.
  package static func playSubscription(seed: UInt64, count: Int) -> [Variant] {
    variants(
      seed: seed, count: count, maxEdits: 3, base: playSubscriptionBase, edits: playSubscriptionEdits,
      lineEdits: true)
  }

  /// Realistic subscription resources.
  package static func playSubscriptionRealistic(seed: UInt64, count: Int) -> [Variant] {
    realistic(seed: seed, count: count, base: playSubscriptionBase)
  }

  /// Voided purchases (reference §4.3): realistic lines with edits (read by the full parser only; the
  /// fuzzers read them).
  package static func playVoided(seed: UInt64, count: Int) -> [Variant] {
    let known = ["purchaseToken", "orderId", "voidedTimeMillis", "purchaseTimeMillis", "voidedReason"]
    var edits = commonEdits(known: known, unknown: ["kind", "voidedSource", "voidedQuantity"])
    edits.append(
      (
        "field form",
        { d, r in
          let form = r.pick(appStoreForms.prefix(2).map { $0 })
          return d.setting(
            r.pick(["voidedTimeMillis", "purchaseTimeMillis", "voidedReason"]), .literal(r.pick(form.values)))
        }
      ))
    return variants(
      seed: seed, count: count, maxEdits: 3,
      base: { r in
        .members([
          ("kind", .string("androidpublisher#voidedPurchase")), ("purchaseToken", .string(r.opaque(150))),
          ("voidedTimeMillis", .string(String(1_764_000_000_000 + r.below(1_000_000)))),
          ("orderId", .string(orderId(&r))), ("voidedSource", .literal("1")), ("voidedReason", .literal("7")),
          ("purchaseTimeMillis", .string("1763000000000")),
        ])
      }, edits: edits, lineEdits: true)
  }
}
