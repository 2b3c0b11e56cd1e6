import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// Thresholds: exclusive limits, per kind or kind/reason, per currency or in a reporting currency (how the
/// config spells them is checked in StoreReconCLITests).
struct AlertRuleTests {
  static let usd = Currency.named("USD")!
  static let eur = Currency.named("EUR")!

  static func finding(
    _ reason: Finding.Reason, _ user: String, _ currency: Currency? = nil, _ amount: Int64? = nil
  ) -> Finding {
    Finding(
      reason: reason, store: .play, chainKey: "c-\(user)", userId: user, productId: "pro:monthly",
      currency: currency,
      amountMinor: amount, detail: "")
  }

  @Test func countLimitIsExclusive() {
    let findings = (1...3).map { Self.finding(.refunded, "u\($0)") }
    #expect(AlertRule(kind: .freeEntitlement, maxCount: 3).breaches(findings, fx: nil).isEmpty)
    let breaches = AlertRule(kind: .freeEntitlement, maxCount: 2).breaches(findings, fx: nil)
    #expect(
      breaches == [AlertBreach(rule: "free_entitlement", text: "free_entitlement: 3 findings > maxCount 2")])
  }

  @Test func reasonRuleWatchesOnlyItsReason() {
    let findings = [Self.finding(.refunded, "a"), Self.finding(.sandbox, "b"), Self.finding(.unclaimed, "c")]
    let rule = AlertRule(kind: .freeEntitlement, reason: .sandbox, maxCount: 0)
    #expect(rule.name == "free_entitlement/sandbox")
    #expect(
      rule.breaches(findings, fx: nil).map(\.text) == ["free_entitlement/sandbox: 1 findings > maxCount 0"])
  }

  @Test func moneyLimitsPerCurrency() {
    let findings = [
      Self.finding(.unclaimed, "a", Self.usd, 300), Self.finding(.unclaimed, "b", Self.usd, 201),
      Self.finding(.unclaimed, "c", Self.eur, 400), Self.finding(.unclaimed, "d"),
    ]
    let rule = AlertRule(kind: .orphanedCharge, maxAmount: [Self.usd: 500, Self.eur: 400])
    #expect(
      rule.breaches(findings, fx: nil).map(\.text) == [
        "orphaned_charge: 5.01 USD at stake > maxAmount 5.00 USD"
      ])
    // A currency without a limit has none.
    #expect(
      AlertRule(kind: .orphanedCharge, maxAmount: [Self.eur: 0]).breaches([findings[0]], fx: nil).isEmpty)
  }

  @Test func reportingCurrencyLimitWithFX() {
    let findings = [
      Self.finding(.unclaimed, "a", Self.usd, 1000), Self.finding(.unclaimed, "b", Self.eur, 1000),
    ]
    let fx = SummaryFX(reportingCurrency: Self.eur, label: "rates") { m in
      m.currency == Self.usd ? m.minor * 9 / 10 : m.minor
    }
    let rule = AlertRule(kind: .orphanedCharge, maxAmountReporting: 1899)
    #expect(
      rule.breaches(findings, fx: fx).map(\.text) == [
        "orphaned_charge: 19.00 EUR at stake (rates) > maxAmountMinor 18.99 EUR"
      ])
    #expect(AlertRule(kind: .orphanedCharge, maxAmountReporting: 1900).breaches(findings, fx: fx).isEmpty)
  }

  @Test func tieOutCellRulesCountCellsAndAbsoluteGrossDifferences() {
    let tieOut = TieOutFixture.tieOut
    let more = AlertRule(target: .tieOutCells(.reportMore), maxCount: 0)
    #expect(more.name == "tieout/report_more" && more.kind == nil && more.reason == nil)
    #expect(
      more.breaches(findings: [], tieOut: tieOut, fx: nil).map(\.text) == [
        "tieout/report_more: 1 cells > maxCount 0"
      ])
    // report_less: gross_diff −9.99 USD counts as 9.99 USD.
    let less = AlertRule(target: .tieOutCells(.reportLess), maxCount: 1, maxAmount: [Self.usd: 998])
    #expect(
      less.breaches(findings: [], tieOut: tieOut, fx: nil).map(\.text) == [
        "tieout/report_less: 9.99 USD gross difference > maxAmount 9.98 USD"
      ])
    #expect(
      AlertRule(target: .tieOutCells(.reportLess), maxAmount: [Self.usd: 999]).breaches(
        findings: [], tieOut: tieOut, fx: nil
      ).isEmpty)
    // Tie-out rules ignore findings; finding rules ignore the tie-out.
    let findings = [Self.finding(.unclaimed, "a", Self.usd, 300)]
    #expect(
      AlertRule(target: .tieOutCells(.match), maxCount: 0).breaches(findings, fx: nil).isEmpty)
    #expect(
      AlertRule(kind: .orphanedCharge, maxCount: 0).breaches(findings: [], tieOut: tieOut, fx: nil).isEmpty)
  }

  @Test func tieOutOrderRulesUseTheChargeDifference() {
    let tieOut = TieOutFixture.tieOut
    let missing = AlertRule(target: .tieOutOrders(.missingInEarnings), maxCount: 0)
    #expect(missing.name == "tieout_orders/missing_in_earnings")
    let amount = AlertRule(target: .tieOutOrders(.amountDiffers), maxAmount: [Self.usd: 99])
    let fee = AlertRule(target: .tieOutOrders(.feeDiffers), maxCount: 1, maxAmount: [Self.usd: 0])
    #expect(
      AlertRule.breaches([missing, amount, fee], findings: [], tieOut: tieOut, fx: nil).map(\.text) == [
        "tieout_orders/missing_in_earnings: 1 orders > maxCount 0",
        "tieout_orders/amount_differs: 1.00 USD charge difference > maxAmount 0.99 USD",
      ])
    let fx = SummaryFX(reportingCurrency: Self.eur, label: "rates") { m in
      m.currency == Self.usd ? m.minor * 9 / 10 : nil
    }
    // 9.99 USD missing from the earnings → 8.99 EUR.
    #expect(
      AlertRule(target: .tieOutOrders(.missingInEarnings), maxAmountReporting: 898).breaches(
        findings: [], tieOut: tieOut, fx: fx
      ).map(\.text) == [
        "tieout_orders/missing_in_earnings: 8.99 EUR charge difference (rates) > maxAmountMinor 8.98 EUR"
      ])
  }
}
