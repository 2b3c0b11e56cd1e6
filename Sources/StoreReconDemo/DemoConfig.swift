/// The `storerecon.json` a demo world runs with: inputs, grace, tolerance, catalog, experiment, FX and fees.
enum DemoConfig {
  /// Relative path of the config.
  static let path = "storerecon.json"

  /// The config and the test root it names (``DemoTestChain``), as (relative path, text).
  static func files(
    notifications: Bool, requireSignatures: Bool = false, stripe: Bool = false, stripeWeb: Bool = false
  ) -> [(path: String, text: String)] {
    [
      (
        path,
        text(
          notifications: notifications, requireSignatures: requireSignatures, stripe: stripe,
          stripeWeb: stripeWeb)
      ),
      (DemoTestChain.rootPath, DemoTestChain.rootPEM + "\n"),
    ]
  }

  /// The config text (key order fixed, so the file is byte-identical across runs); with
  /// `notifications`, it reads the app's notification log and the store's notification history; with
  /// `requireSignatures` (every App Store line a JWS, in fetch's journal folder), `appStore.signatures` is
  /// `require` and `appStore.transactions` is that folder; with `stripe`
  /// (the classic world), the demo's web subscriptions (``DemoStripeOutputs``); with `stripeWeb` (the
  /// realistic world), Stripe's objects and balance reports of ``DemoStripeWeb``.
  static func text(
    notifications: Bool = true, requireSignatures: Bool = false, stripe: Bool = false, stripeWeb: Bool = false
  )
    -> String
  {
    let history =
      notifications ? ",\n    \"notificationHistory\": [\"exports/apple/notification_history*.jsonl\"]" : ""
    let log = notifications ? ",\n    \"notifications\": \"\(DemoOutputs.notificationsPath)\"" : ""
    var catalog: [String] = []
    for product in DemoProduct.allCases {
      let prefix = product.store == .play ? "play:" : "app_store:"
      var entry = "    \"\(prefix)\(product.name)\": {\"type\": \"\(product.catalogType)\""
      if let period = product.catalogPeriod { entry += ", \"period\": \"\(period)\"" }
      if let tier = product.catalogTier { entry += ", \"tier\": \"\(tier)\"" }
      if product.tier == .coins { entry += ", \"units\": \(DemoProduct.coinUnits)" }
      catalog.append(entry + "}")
    }
    let realistic = stripeWeb ? webSections() : (catalog: [], objects: "", fee: "")
    catalog += realistic.catalog
    let webObjects = realistic.objects
    let stripeFee = realistic.fee
    // The all-JWS world's App Store history is fetch's journal folder (DemoOutputs.journalFolder).
    let transactions =
      requireSignatures ? "\(DemoOutputs.journalFolder)/*.jsonl" : "exports/apple/transactions*.jsonl"
    let web = stripe ? DemoConfig.stripeSections : (input: "", grace: "", catalog: "", fee: "")
    catalog[catalog.count - 1] += web.catalog
    return """
      {
        "timeZone": "UTC",
        "appStore": {
          "transactions": ["\(transactions)"],
          "salesReports": ["exports/apple/reports/S_D_*.txt"],
          "financialSummaries": ["exports/apple/financial/financial_report_*.csv"],
          "reportTimeZone": "America/Los_Angeles",
          "signatures": "\(requireSignatures ? "require" : "verify")",
          "testRootCertificate": "\(DemoTestChain.rootPath)"\(history)
        },
        "play": {
          "sales": ["exports/play/salesreport_*.csv"],
          "subscriptions": ["exports/play/subscriptions*.jsonl"],
          "voided": ["exports/play/voided*.jsonl"],
          "earnings": ["exports/play/earnings/PlayApps_*.csv"]
        },\(web.input)
        \(webObjects)"app": {
          "entitlements": "\(DemoOutputs.entitlementsPath)",
          "credentials": "\(DemoOutputs.credentialsPath)",
          "assignments": "\(DemoOutputs.assignmentsPath)",
          "goodwill": "\(DemoOutputs.goodwillPath)",
          "credits": "\(DemoOutputs.creditsPath)"\(log)
        },
        "graceDays": {"app_store": 16, "play": 30\(web.grace)},
        "toleranceHours": 24,
        "creditGraceHours": \(DemoRuleCheck.creditGraceHours),
        "catalog": {
      \(catalog.joined(separator: ",\n"))
        },
        "experiments": [
          {
            "id": "\(DemoBuilder.experimentId)",
            "enrollStart": "2026-09-01",
            "enrollEnd": "2026-10-15",
            "arms": [
              {"id": "control", "weight": 50, "products": ["com.acme.pro.monthly", "play:pro:monthly"]},
              {"id": "high", "weight": 50, "products": ["com.acme.pro.monthly.hi", "play:pro:monthly-hi"]}
            ],
            "maturityThreshold": 0.9,
            "bootstrap": {"iterations": 2000, "seed": 1}
          }
        ],
        "reportingCurrency": "\(DemoFX.reporting)",
        "fxRates": "\(DemoFX.path)",
        "fees": {
          "appStore": {"standardBp": 3000, "smallBusiness": false, "smallBusinessBp": 1500, "afterFirstYearBp": 1500},
          "play": {"subscriptionBp": 1500, "oneTimeBp": 3000}\(web.fee)\(stripeFee)
        }
      }

      """
  }

  /// The realistic world's Stripe pieces (``DemoStripeWeb``): its catalog entries, its `stripe` input
  /// section (before `app`) and its fee entry.
  static func webSections() -> (catalog: [String], objects: String, fee: String) {
    let catalog = DemoWebSubscription.Price.allCases.map { price in
      "    \"stripe:\(price.productName)\": {\"type\": \"subscription\", \"period\": \"\(price == .yearly ? "P1Y" : "P1M")\", \"tier\": \"pro\"}"
    }
    let objects =
      "\"stripe\": {\n      \"objects\": [\"\(DemoStripeWeb.eventsPath)\", \"\(DemoStripeWeb.objectsPath)\"],\n"
      + "      \"reports\": [\"\(DemoStripeWeb.reportsFolder)/balance_change_from_activity_itemized_*.csv\"]\n    },\n    "
    return (catalog, objects, ",\n      \"stripe\": {\"bp\": \(DemoStripeWeb.feeBasisPoints)}")
  }
}
