import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconRun

/// Thresholds as the config spells them: `RunConfig.parseAlerts` (the rules themselves are checked in
/// StoreReconReportsTests).
struct AlertRuleTests {
  static let usd = Fx.usd

  @Test func configShapes() throws {
    let rules = try RunConfig.parseAlerts(
      [
        "orphaned_charge/unclaimed": ["maxCount": 5],
        "free_entitlement": ["maxCount": 100, "maxAmount": ["USD": 50000, "JPY": 7000]],
      ],
      name: "c.json", hasFX: false)
    #expect(rules.map(\.name) == ["free_entitlement", "orphaned_charge/unclaimed"])
    #expect(rules[0].maxAmount == [Self.usd: 50000, Currency.named("JPY")!: 7000])
    #expect(
      try RunConfig.parseAlerts(["free_entitlement": ["maxAmountMinor": 5]], name: "c", hasFX: true)[0]
        .maxAmountReporting == 5)
    for bad: [String: Any] in [
      ["free_entitlement": ["maxCount": -1]], ["free_entitlement": ["maxCount": true]],
      ["free_entitlement": ["max": 1]],
      ["orphaned_charge/refunded": ["maxCount": 1]], ["a/b/c": ["maxCount": 1]], ["free_entitlement": 5],
    ] {
      #expect(throws: RunError.self, "\(bad)") { try RunConfig.parseAlerts(bad, name: "c", hasFX: false) }
    }
  }
}
