import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Commitment plans (docs/rules.md#commitment-plans): an App Store monthly subscription with a 12-month
/// commitment and a Play installments base plan, each payment a charge of its own month.
@Suite struct CommitmentPlanRuleTests {
  /// A catalog that calls the product yearly, as a team that sells it up front too would write it.
  static let yearly: Catalog = {
    var catalog = Catalog()
    catalog.set("com.acme.pro.yearly", .init(type: .autoRenewable, period: BillingPeriod(months: 12)))
    catalog.set("pro:yearly-installments", .init(type: .autoRenewable, period: BillingPeriod(months: 12)))
    return catalog
  }()
  static let start = Fx.at("2026-09-03T10:00:00Z")

  /// Payment `n` (1-based) of the commitment that started at ``start``: bought `n − 1` months later,
  /// paid through one month after that.
  static func payment(
    _ n: Int, chain: String = "c1", expires: Bool = true, revokedAt: Instant? = nil
  ) -> StoreTransaction {
    let at = BillingPeriod(months: n - 1).advance(start)
    var r = Fx.apple(
      "\(chain)-\(n)", original: chain, product: "com.acme.pro.yearly", at: at,
      expires: expires ? BillingPeriod.oneMonth.advance(at) : nil, price: 1_000, revokedAt: revokedAt,
      revocationType: revokedAt == nil ? nil : "REFUND_FULL")
    r.commitment = Commitment(
      paymentNumber: n, totalPayments: 12, remainingPayments: 12 - n,
      endsAt: BillingPeriod(months: 12).advance(start))
    return r
  }

  static func findings(_ records: [StoreTransaction], _ entitlements: [Entitlement]) -> [Finding] {
    Fx.findings(records, entitlements, catalog: yearly)
  }

  static func ent(_ expires: Instant, status: EntitlementStatus = .active, key: String = "c1") -> Entitlement
  {
    Fx.ent("e1", user: "u1", product: "com.acme.pro.yearly", key: key, status: status, expires: expires)
  }

  @Test func eachPaymentPaysItsOwnMonth() throws {
    let payments = (1...3).map { Self.payment($0) }
    let ledger = Fx.ledger(payments, catalog: Self.yearly)
    let chain = try #require(ledger.chain(store: .appStore, key: "c1"))
    #expect(chain.paidThrough == Fx.at("2026-12-03T10:00:00Z"))
    let commitment = try #require(chain.commitment)
    #expect(commitment.paymentNumber == 3)
    #expect(commitment.remainingPayments == 9)
    #expect(commitment.endsAt == Fx.at("2027-09-03T10:00:00Z"))
    #expect(chain.paidCharges.count == 3)
    // The app grants to the end of the month paid: nothing to report.
    #expect(Self.findings(payments, [Self.ent(Fx.at("2026-12-03T10:00:00Z"))]).isEmpty)
    // Granting the year the customer committed to is access nobody paid for yet.
    let f = Self.findings(payments, [Self.ent(Fx.at("2027-09-03T10:00:00Z"))])
    #expect(f.map(\.reason) == [.overextended])
    #expect(
      f.first?.detail
        == "entitlement e1 (active, until 2027-09-03T10:00:00.000Z): runs past store paid-through "
        + "2026-12-03T10:00:00.000Z + 0d grace + tolerance; commitment: payment 3 of 12, 9 to pay, "
        + "ends 2027-09-03T10:00:00.000Z")
  }

  @Test func aPaymentWithoutExpiryBuysOneMonthNotTheCatalogYear() throws {
    // Payment 2 (2026-10-03) without its expiresDate: one month, not the product's yearly period.
    let payments = [Self.payment(1), Self.payment(2, expires: false)]
    let chain = try #require(Fx.ledger(payments, catalog: Self.yearly).chain(store: .appStore, key: "c1"))
    #expect(chain.paidThrough == Fx.at("2026-11-03T10:00:00Z"))
    let f = Self.findings(payments, [Self.ent(Fx.at("2027-10-03T10:00:00Z"))])
    #expect(f.map(\.reason) == [.storeExpired])
  }

  @Test func appleGivesNoGraceOnACommitment() {
    // Paid through 2026-11-03; Apple is retrying. An app that keeps granting past the month paid gives
    // access Apple does not: no grace allowance on a commitment plan.
    let payments = (1...2).map { Self.payment($0) }
    let f = Self.findings(payments, [Self.ent(Fx.at("2026-12-10T00:00:00Z"), status: .grace)])
    #expect(f.map(\.reason) == [.storeExpired])
    #expect(f.first?.detail.contains("+ 0d grace is before T") == true)
    // The same chain billed the usual way keeps the App Store's 16 days.
    #expect(
      Self.findings(
        [
          Fx.apple(
            "x", original: "x", at: Fx.at("2026-10-20T00:00:00Z"), expires: Fx.at("2026-11-20T00:00:00Z"))
        ],
        [Fx.ent("e1", user: "u1", key: "x", status: .grace, expires: Fx.at("2026-12-05T00:00:00Z"))]
      ).isEmpty)
  }

  @Test func billingRetryAsTheContractSaysIsNoFinding() {
    // Apple retries; the app marks the entitlement billing_retry (not active): no finding either way.
    let payments = (1...2).map { Self.payment($0) }
    #expect(Self.findings(payments, [Self.ent(Fx.at("2026-11-03T10:00:00Z"), status: .billingRetry)]).isEmpty)
  }

  @Test func refundOfAnEarlierMonthKeepsTheCommitmentAndAccess() throws {
    let payments = [
      Self.payment(1), Self.payment(2, revokedAt: Fx.at("2026-10-20T00:00:00Z")), Self.payment(3),
    ]
    #expect(Self.findings(payments, [Self.ent(Fx.at("2026-12-03T10:00:00Z"))]).isEmpty)
    let chain = try #require(Fx.ledger(payments, catalog: Self.yearly).chain(store: .appStore, key: "c1"))
    #expect(chain.revocation == nil)
    #expect(chain.paidCharges.count == 2)
    #expect(chain.commitment?.remainingPayments == 9)
  }

  @Test func refundOfTheCurrentMonthEndsAccess() {
    let payments = [
      Self.payment(1), Self.payment(2), Self.payment(3, revokedAt: Fx.at("2026-11-20T00:00:00Z")),
    ]
    let f = Self.findings(payments, [Self.ent(Fx.at("2026-12-03T10:00:00Z"))])
    #expect(f.map(\.reason) == [.refunded])
    #expect(f.first?.detail.contains("commitment: payment 3 of 12") == true)
  }

  @Test func anUnclaimedCommitmentNamesItsProgress() {
    let payments = (1...3).map { Self.payment($0) }
    let f = Self.findings(payments, [])
    #expect(f.map(\.reason) == [.unclaimed])
    #expect(f.first?.amountMinor == 3_000)
    #expect(f.first?.detail.contains("; commitment: payment 3 of 12, 9 to pay") == true)
  }

  @Test func playInstallmentsKeepPlaysGraceAndShowTheirCounts() throws {
    var status = Fx.playStatus(
      token: "tok", latestOrder: "GPA.1..2", start: Fx.at("2026-09-01T00:00:00Z"),
      expiry: Fx.at("2026-11-25T00:00:00Z"), product: "pro:yearly-installments")
    status.commitment = Commitment(totalPayments: 12, remainingPayments: 9, pendingCancellation: true)
    let ledger = Fx.ledger([status], catalog: Self.yearly)
    let commitment = try #require(ledger.chain(store: .play, key: "tok")?.commitment)
    #expect(commitment.paymentNumber == 3)
    #expect(commitment.detail == "commitment: payment 3 of 12, 9 to pay, cancellation pending")
    let ent = Fx.ent(
      "e1", user: "u1", product: "pro:yearly-installments", source: .play, key: "tok", status: .grace,
      expires: Fx.at("2026-12-05T00:00:00Z"))
    // Play documents grace and account hold for installments: its allowance holds.
    #expect(Fx.findings([status], [ent], catalog: Self.yearly).isEmpty)
  }

  @Test func packedCountsRoundTrip() {
    let c = Commitment(totalPayments: 12, remainingPayments: 0, pendingCancellation: false)
    #expect(
      Commitment(packed: c.packed) == Commitment(paymentNumber: 12, totalPayments: 12, remainingPayments: 0))
    #expect(Commitment(packed: 0) == nil)
    #expect(Commitment(packed: Commitment().packed) == Commitment())
  }
}
