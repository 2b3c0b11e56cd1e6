import Testing

@testable import StoreReconRun
@testable import StoreReconCore
@testable import StoreReconReports

/// `"alerts"` keys on tie-out statuses as the config spells them.
struct TieOutAlertConfigTests {
  @Test func tieOutKeys() throws {
    let rules = try RunConfig.parseAlerts(
      [
        "tieout/report_more": ["maxCount": 0],
        "tieout/price_differs": ["maxCount": 5, "maxAmount": ["USD": 1000]],
        "tieout_orders/missing_in_earnings": ["maxCount": 0],
        "free_entitlement": ["maxCount": 1],
      ],
      name: "c.json", hasFX: false)
    #expect(
      rules.map(\.name) == [
        "free_entitlement", "tieout/price_differs", "tieout/report_more", "tieout_orders/missing_in_earnings",
      ])
    #expect(rules[1].target == .tieOutCells(.priceDiffers))
    #expect(rules[1].maxCount == 5 && rules[1].maxAmount == [Currency.named("USD")!: 1000])
    #expect(rules[3].target == .tieOutOrders(.missingInEarnings) && rules[3].maxCount == 0)
  }

  @Test func unknownStatusesNameTheValidOnes() {
    for (alerts, message) in [
      (
        ["tieout/missing": ["maxCount": 0]],
        "'tieout/missing': 'missing' is not a tieout status (match, report_more, report_less, price_differs)"
      ),
      (
        ["tieout_orders/report_more": ["maxCount": 0]],
        "'report_more' is not a tieout_orders status (match, missing_in_earnings, missing_in_sales, amount_differs, "
          + "fee_differs, refund_not_in_earnings, refund_not_in_sales, missing_in_report, missing_in_feed)"
      ),
      (["tieout": ["maxCount": 0]], "'tieout' must be tieout/<status>"),
      (["tieout/match/x": ["maxCount": 0]], "'tieout/match/x' must be tieout/<status>"),
      (["tieout/match": [:]], "tieout/match sets no threshold"),
      (["tie_out/match": ["maxCount": 0]], "tieout/<status> or tieout_orders/<status>"),
    ] as [([String: Any], String)] {
      do {
        _ = try RunConfig.parseAlerts(alerts, name: "c.json", hasFX: false)
        Issue.record("\(alerts) was accepted")
      } catch {
        #expect(error.description.contains(message), "\(error.description)")
      }
    }
  }
}
