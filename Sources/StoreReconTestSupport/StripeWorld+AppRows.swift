import Foundation

extension StripeWorld {
  /// The app's entitlements and credentials, the App Store purchase of the user who pays twice, and the
  /// config.
  func writeAppRows() throws {
    func day(_ d: (Int, Int)) -> String { String(format: "2026-%02d-%02dT12:00:00Z", d.0, d.1) }
    var entitlements =
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
    var credentials = "store,store_key,user_id,linked_store_key,order_id,claimed_at\n"
    for (p, _) in StripeWorld.plants {
      let sub = StripeWorld.id("sub", p.name)
      if let e = p.entitlement {
        entitlements +=
          "e-\(p.name),\(p.user),pro_monthly,stripe,\(sub),active,\(day(e.start)),\(day(e.end)),\n"
      }
      for user in p.claimedBy {
        credentials += "stripe,\(sub),\(user),,,\(day(p.periods.first?.start ?? (11, 1)))\n"
      }
    }
    // The user on the web plan also pays on the App Store for the same tier.
    entitlements +=
      "e-double-ios,u-double,com.acme.pro.monthly,app_store,2000000000000001,active,"
      + "2026-11-01T12:00:00Z,2026-12-01T12:00:00Z,\n"
    credentials += "app_store,2000000000000001,u-double,,,2026-11-01T12:00:00Z\n"
    try write("app/entitlements.csv", entitlements)
    try write("app/credentials.csv", credentials)
    let start = StripeWorld.at(11, 1) * 1000
    try write(
      "exports/apple/transactions.jsonl",
      "{\"transactionId\":\"2000000000000001\",\"originalTransactionId\":\"2000000000000001\","
        + "\"productId\":\"com.acme.pro.monthly\",\"purchaseDate\":\(start),\"originalPurchaseDate\":\(start),"
        + "\"expiresDate\":\(start + 30 * 86_400_000),\"price\":9990,\"currency\":\"USD\","
        + "\"environment\":\"Production\",\"type\":\"Auto-Renewable Subscription\","
        + "\"inAppOwnershipType\":\"PURCHASED\",\"transactionReason\":\"PURCHASE\",\"quantity\":1}\n")
    try write(
      "storerecon.json",
      """
      {"timeZone": "UTC",
       "stripe": {"objects": ["exports/stripe/*.jsonl"]},
       "appStore": {"transactions": ["exports/apple/*.jsonl"], "signatures": "off"},
       "app": {"entitlements": "app/entitlements.csv", "credentials": "app/credentials.csv"},
       "graceDays": {"stripe": 7},
       "catalog": {"stripe:pro_monthly": {"type": "subscription", "period": "P1M", "tier": "pro"},
                   "com.acme.pro.monthly": {"type": "subscription", "period": "P1M", "tier": "pro"}}}
      """)
  }
}
