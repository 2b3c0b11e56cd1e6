import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// A refund any source states counts: the earnings report's `Charge refund`, the App Store's REFUND and
/// REFUND_REVERSED notifications (docs/rules.md#free_entitlementrefunded).
@Suite struct RefundSourceTests {
  let later = Fx.t.adding(ms: Fx.days(20))

  func findings(
    _ records: [StoreTransaction], _ entitlements: [Entitlement], evidence: RefundEvidence
  ) -> [Finding] {
    let builder = LedgerBuilder()
    for r in records { builder.add(r) }
    builder.refundEvidence = evidence
    let ledger = builder.build(asOf: Fx.t, catalog: Catalog())
    return Reconciler.findings(
      ledger: ledger, entitlements: entitlements, credentials: [], goodwill: [],
      options: ReconcileOptions(asOf: Fx.t))
  }

  /// A Play one-time product (a lifetime unlock) and its entitlement.
  var oneTime: (StoreTransaction, Entitlement) {
    var charge = Fx.playCharge("GPA.7", at: Fx.t.adding(ms: -Fx.days(30)), product: "lifetime")
    charge.productTypeRaw = "inapp"
    let e = Fx.ent("e1", user: "u1", product: "lifetime", source: .play, key: "GPA.7", expires: nil)
    return (charge, e)
  }

  @Test func playOneTimeRefundedOnlyInEarningsIsRefunded() {
    let (charge, e) = oneTime
    #expect(findings([charge], [e], evidence: RefundEvidence()).isEmpty)
    var evidence = RefundEvidence()
    evidence.addPlayEarningsRefund(order: "GPA.7", at: Fx.t.adding(ms: -Fx.days(2)))
    let f = findings([charge], [e], evidence: evidence)
    #expect(f.map(\.reason) == [.refunded])
    #expect(
      f.first?.detail.hasSuffix(
        ": latest order GPA.7 returned (earnings Charge refund) 2026-11-28T00:00:00.000Z") == true)
  }

  @Test func earningsRefundAfterTOrOfAnotherOrderDoesNotCount() {
    let (charge, e) = oneTime
    var evidence = RefundEvidence()
    evidence.addPlayEarningsRefund(order: "GPA.7", at: Fx.t.adding(ms: 1))
    evidence.addPlayEarningsRefund(order: "GPA.8", at: Fx.t.adding(ms: -Fx.days(2)))
    #expect(findings([charge], [e], evidence: evidence).isEmpty)
  }

  @Test func detailListsEverySourceAndTheEarliestInstant() {
    let first = Fx.playCharge("GPA.1", at: Fx.t.adding(ms: -Fx.days(10)))
    let status = Fx.playStatus(token: "tok", latestOrder: "GPA.1", start: first.at, expiry: later)
    let refund = Fx.playRefund("GPA.1", at: Fx.t.adding(ms: -Fx.days(3)))
    let void = Fx.playVoid(token: "tok", order: "GPA.1", at: Fx.t.adding(ms: -Fx.days(2)))
    var evidence = RefundEvidence()
    evidence.addPlayEarningsRefund(order: "GPA.1", at: Fx.t.adding(ms: -Fx.days(4)))
    let e = Fx.ent("e1", user: "u1", product: "pro:monthly", source: .play, key: "tok", expires: later)
    let f = findings([first, status, refund, void], [e], evidence: evidence)
    #expect(f.map(\.reason) == [.refunded])
    #expect(
      f.first?.detail.hasSuffix(
        ": latest order GPA.1 returned (refund row, voided purchase, earnings Charge refund) "
          + "2026-11-26T00:00:00.000Z") == true)
  }

  @Test func appleRefundReversedLaterRestoresAccess() {
    let c = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later,
      revokedAt: Fx.t.adding(ms: -Fx.days(3)), revocationType: "REFUND_FULL")
    let e = Fx.ent("e1", user: "u1", key: "1", expires: later)
    var refunded = RefundEvidence()
    refunded.addAppleNotice(
      transactionId: "1", reversal: false, at: Fx.t.adding(ms: -Fx.days(3)), source: RefundEvidence.appLog)
    let f = findings([c], [e], evidence: refunded)
    #expect(f.map(\.reason) == [.refunded])
    #expect(f.first?.detail.hasSuffix("; REFUND notification in the app's log") == true)
    var reversed = refunded
    reversed.addAppleNotice(
      transactionId: "1", reversal: true, at: Fx.t.adding(ms: -Fx.days(1)), source: RefundEvidence.appLog)
    #expect(findings([c], [e], evidence: reversed).isEmpty)
    // A reversal after T, or before the refund (refunded again since), leaves the refund.
    var afterT = refunded
    afterT.addAppleNotice(
      transactionId: "1", reversal: true, at: Fx.t.adding(ms: 1), source: RefundEvidence.appLog)
    #expect(findings([c], [e], evidence: afterT).map(\.reason) == [.refunded])
    var before = refunded
    before.addAppleNotice(
      transactionId: "1", reversal: true, at: Fx.t.adding(ms: -Fx.days(5)), source: RefundEvidence.appLog)
    #expect(findings([c], [e], evidence: before).map(\.reason) == [.refunded])
  }

  @Test func evidenceFromReportsAndNotifications() {
    func row(_ order: String, _ type: PlayEarningsRow.TransactionType, refundType: String = "")
      -> PlayEarningsRow
    {
      var r = PlayEarningsRow(
        month: CivilDate(year: 2026, month: 11, day: 1), orderId: order,
        day: CivilDate(year: 2026, month: 11, day: 20), type: type, productId: "lifetime", country: "DE",
        buyerCurrency: Fx.eur, buyerAmountMinor: -499, merchantCurrency: Fx.eur, merchantAmountMinor: -499,
        origin: Fx.origin)
      r.refundType = refundType
      return r
    }
    var refund = StoreNotification(store: .appStore, notificationId: "n1", type: "REFUND", origin: Fx.origin)
    refund.transactionId = "1"
    refund.eventAt = Fx.t.adding(ms: -Fx.days(3))
    var sandbox = refund
    sandbox.transactionId = "2"
    sandbox.production = false
    var renew = refund
    renew.type = "DID_RENEW"
    renew.transactionId = "3"
    let evidence = RefundEvidence(
      earnings: [
        row("GPA.1", .chargeRefund), row("GPA.2", .chargeRefund, refundType: "Partial"),
        row("GPA.3", .googleFeeRefund), row("GPA.4", .charge),
      ], received: [refund, sandbox, renew], history: [refund])
    #expect(evidence.playEarnings == ["GPA.1": CivilDate(year: 2026, month: 11, day: 20).startUTC])
    #expect(Array(evidence.apple.keys) == ["1"])
    #expect(evidence.apple["1"]?.refundSources == [RefundEvidence.appLog, RefundEvidence.appleHistory])
  }
}
