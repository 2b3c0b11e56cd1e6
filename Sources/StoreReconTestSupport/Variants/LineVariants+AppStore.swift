// App Store lines: a decoded `JWSTransactionDecodedPayload` (reference §1.1) with every current field.
extension LineVariants {
  /// The fields the App Store importer reads.
  static let appStoreKnown = [
    "originalTransactionId", "transactionId", "productId", "purchaseDate", "originalPurchaseDate",
    "expiresDate", "price", "currency", "type", "offerDiscountType", "offerType", "environment",
    "inAppOwnershipType", "revocationDate", "revocationType", "revocationReason", "revocationPercentage",
    "isUpgraded", "appAccountToken", "offerIdentifier", "transactionReason", "storefront", "quantity",
  ]

  /// Fields Apple sends that the importer does not read, and wrapper names it unwraps.
  static let appStoreOthers = [
    "webOrderLineItemId", "bundleId", "subscriptionGroupIdentifier", "signedDate", "storefrontId",
    "offerPeriod", "appTransactionId", "advancedCommerceInfo", "data", "signedTransactionInfo",
    "signedPayload", "notificationType",
  ]

  /// An id as the stores and other systems write them: Apple's digits, a UUID, a long opaque id.
  static func anyId(_ r: inout VariantRandom) -> String {
    switch r.below(4) {
    case 0: return r.uuid(upper: r.chance(30))
    case 1: return r.opaque(r.pick([64, 40, 128]))
    default: return "2000000" + r.text(9, from: "0123456789")
    }
  }

  /// A realistic App Store transaction.
  static func appStoreBase(_ r: inout VariantRandom) -> DraftJSON {
    let original = anyId(&r)
    let renewal = r.chance(60)
    let purchase = 1_700_000_000_000 + Int64(r.below(90_000_000)) * 1000 + Int64(r.below(1000))
    let subscription = r.chance(80)
    let (currency, price) = r.pick([
      ("USD", "4990"), ("EUR", "5490"), ("JPY", "700000"), ("GBP", "3990"), ("USD", "0"), ("KWD", "1250"),
    ])
    var members: [(String, DraftJSON)] = [
      ("transactionId", .string(renewal ? anyId(&r) : original)),
      ("originalTransactionId", .string(original)),
      ("webOrderLineItemId", .string("2000000" + r.text(9, from: "0123456789"))),
      ("bundleId", .string("com.acme.app")),
      ("productId", .string(r.pick(["com.acme.pro.monthly", "com.acme.pro.yearly", "credits_100", "pro"]))),
      ("subscriptionGroupIdentifier", .string("21000000")),
      ("purchaseDate", .literal(String(purchase))),
      ("originalPurchaseDate", .literal(String(purchase - 86_400_000))),
      ("quantity", .literal("1")),
      (
        "type",
        .string(subscription ? "Auto-Renewable Subscription" : r.pick(["Consumable", "Non-Consumable"]))
      ),
      ("inAppOwnershipType", .string(r.chance(90) ? "PURCHASED" : "FAMILY_SHARED")),
      ("signedDate", .literal(String(purchase + 5000))),
      ("environment", .string(r.chance(95) ? "Production" : "Sandbox")),
      ("transactionReason", .string(renewal ? "RENEWAL" : "PURCHASE")),
      ("storefront", .string(r.pick(["USA", "DEU", "JPN", "GBR", "FRA", "XKS"]))),
      ("storefrontId", .string("143441")), ("price", .literal(price)), ("currency", .string(currency)),
      ("appTransactionId", .string(r.opaque(24))),
    ]
    if subscription { members.append(("expiresDate", .literal(String(purchase + 2_592_000_000)))) }
    if r.chance(80) { members.append(("appAccountToken", .string(r.uuid()))) }
    if r.chance(25) {
      members += [
        ("offerType", .literal(r.pick(["1", "2", "3", "4"]))),
        ("offerDiscountType", .string(r.pick(["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT"]))),
        ("offerIdentifier", .string("intro-" + r.text(4, from: "abcdef"))), ("offerPeriod", .string("P1M")),
      ]
    }
    if r.chance(10) {
      members += [
        ("revocationDate", .literal(String(purchase + 86_400_000))),
        ("revocationReason", .literal(r.pick(["0", "1"]))),
        ("revocationType", .string(r.pick(["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"]))),
        ("revocationPercentage", .literal(String(r.below(100_001)))),
      ]
    }
    if r.chance(10) { members.append(("isUpgraded", .literal("true"))) }
    return .members(members)
  }

  /// Values of each kind of App Store field: valid, odd and invalid forms.
  static let appStoreForms: [(keys: [String], values: [String])] = [
    (
      ["purchaseDate", "originalPurchaseDate", "expiresDate", "revocationDate"],
      [
        "1764000000000", "\"1764000000000\"", "1764000000000.4", "1764000000000.5", "1764000000000.0",
        "1.764e12", "1764000000000e0", "-1764000000000", "01764000000000", "-0", "0", "null", "\"\"",
        "99999999999999999", "9999999999999999999", "\"1764000000000.6\"", "\" 1764000000000\"", "true",
        "253402300800000", "-62135596800000", "-62135596800001",
      ]
    ),
    (
      ["price", "revocationPercentage", "offerType", "revocationReason"],
      [
        "4990", "\"4990\"", "4990.0", "4.99e3", "-4990", "0", "-0", "04990", "1e400", "4995", "4999",
        "999999999999999999", "9223372036854775807", "9223372036854775808", "null", "\"\"", "1", "2",
        "\"1\"", "1.5", "[4990]",
      ]
    ),
    (["quantity"], ["1", "2", "0", "-1", "65535", "65536", "\"3\"", "1.0", "null", "\"\"", "1e0"]),
    (
      ["storefront"],
      ["\"USA\"", "\"US\"", "\"usa\"", "\"ZZZ\"", "\"XKS\"", "\"\"", "840", "\"DE\"", "\"U\""]
    ),
    (
      ["environment"],
      ["\"Production\"", "\"Sandbox\"", "\"Xcode\"", "\"production\"", "\"\"", "null", "\"LocalTesting\""]
    ),
    (["currency"], ["\"USD\"", "\"usd\"", "\"EUR\"", "\"JPY\"", "\"XXX\"", "\"US\"", "\" USD\"", "840"]),
    (["isUpgraded"], ["true", "false", "\"true\"", "\"false\"", "1", "null", "\"\""]),
    (
      ["originalTransactionId", "transactionId", "appAccountToken", "productId", "type", "offerIdentifier"],
      [
        "2000000000000123", "1e3", "-5", "0.5", "\"\"", "null", "\"a b\"", "\"caf\u{e9}\"", "\"\u{1F600}\"",
        "true", "{}", "\"2000000000000123\"",
      ]
    ),
    (
      ["offerDiscountType", "inAppOwnershipType", "transactionReason", "revocationType"],
      ["\"FREE_TRIAL\"", "\"FAMILY_SHARED\"", "\"free_trial\"", "\"PURCHASED\"", "\"\"", "null", "7"]
    ),
    (
      ["signedTransactionInfo", "signedPayload", "data", "notificationType"],
      ["\"a.b.c\"", "{}", "null", "\"TEST\""]
    ),
  ]

  /// The App Store edits: the common ones, each field's forms, and long ids.
  static var appStoreEdits: [Edit] {
    var edits = commonEdits(known: appStoreKnown, unknown: appStoreOthers + ["commitmentInfo", "x"])
    edits.append(
      (
        "field form",
        { d, r in
          let form = r.pick(appStoreForms)
          return d.setting(r.pick(form.keys), .literal(r.pick(form.values)))
        }
      ))
    edits.append(
      (
        "long ids",
        { d, r in
          let id = r.pick([r.uuid(), r.uuid(upper: true), r.opaque(), r.opaque(200)])
          return d.setting(
            r.pick(["originalTransactionId", "transactionId", "appAccountToken"]), .string(id))
        }
      ))
    edits.append(
      (
        "free offer",
        { d, r in
          d.setting("price", .literal("0")).setting("offerType", .literal(r.pick(["1", "2", "\"1\""])))
        }
      ))
    return edits
  }

  /// App Store variants: realistic lines with up to three edits each, some broken at the byte level.
  package static func appStore(seed: UInt64, count: Int) -> [Variant] {
    variants(seed: seed, count: count, maxEdits: 3, base: appStoreBase, edits: appStoreEdits, lineEdits: true)
  }

  /// Realistic App Store lines (permuted members, other writers' spacing, long ids; no odd values).
  package static func appStoreRealistic(seed: UInt64, count: Int) -> [Variant] {
    realistic(seed: seed, count: count, base: appStoreBase)
  }
}
