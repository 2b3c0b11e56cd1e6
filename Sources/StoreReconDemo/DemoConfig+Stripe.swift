/// The config's Stripe parts, where the world has web subscriptions (docs/inputs.md#stripe-objects).
extension DemoConfig {
  /// The `stripe` inputs, the grace, the catalog entry and the fee, each as text to insert.
  static var stripeSections: (input: String, grace: String, catalog: String, fee: String) {
    (
      input: """

        "stripe": {
          "objects": ["\(DemoStripeOutputs.objectsPath)"],
          "events": ["\(DemoStripeOutputs.eventsPath)"],
          "reports": ["exports/stripe/reports/balance_change_from_activity_itemized_*.csv"]
        },
      """,
      grace: ", \"stripe\": \(DemoRuleCheck.graceDaysStripe)",
      catalog: """
      ,
          "stripe:\(DemoStripeSubscription.product)": {"type": "subscription", "period": "P1M", "tier": "pro"}
      """,
      fee: """
      ,
          "stripe": {"bp": \(DemoStripeBalance.feeBp)}
      """
    )
  }
}
