import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// The readout of commitment plans (docs/rules.md#commitment-plans): each monthly payment of the yearly
/// product is credited to the arm of the chain's original purchase, and the chain matures with its
/// first month, not with the yearly product's catalog period.
@Suite struct ReadoutCommitmentTests {
  /// A catalog that calls the product yearly, as a team that also sells it up front would write it.
  static let yearly: Catalog = {
    var catalog = Catalog()
    catalog.set("com.acme.pro.yearly", .init(type: .autoRenewable, period: BillingPeriod(months: 12)))
    catalog.set("pro:yearly-installments", .init(type: .autoRenewable, period: BillingPeriod(months: 12)))
    return catalog
  }()

  /// `months` monthly payments of a 12-month commitment on the yearly product, from 2026-09-05.
  static func payments(_ chain: String, months: Int) -> [StoreTransaction] {
    let start = Fx.at("2026-09-05T10:00:00Z")
    return (1...months).map { n in
      let at = BillingPeriod(months: n - 1).advance(start)
      var r = Fx.apple(
        "\(chain)-\(n)", original: chain, product: "com.acme.pro.yearly", at: at,
        expires: BillingPeriod.oneMonth.advance(at), price: 999)
      r.commitment = Commitment(
        paymentNumber: n, totalPayments: 12, remainingPayments: 12 - n,
        endsAt: BillingPeriod(months: 12).advance(start))
      return r
    }
  }

  @Test func aCommitmentChainMaturesWithItsFirstMonthAndEveryPaymentIsItsArms() {
    // Control: monthly buyers of 09-10 (mature by T, 11-30). High: 20 users paying the yearly product
    // month by month since 09-05 (three payments by T).
    let control = Ex.cohort("control", prefix: "c", n: 40, payers: 20, price: 499)
    var high = Ex.cohort("high", prefix: "h", n: 40, payers: 0, price: 999)
    for i in 0..<20 {
      high.records += Self.payments("commit-\(i)", months: 3)
      high.credentials.append(Fx.cred(key: "commit-\(i)", user: "h\(i)"))
    }
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments, catalog: Self.yearly)
    let arm = r.arms[1].reporting
    // Read as a yearly product, the chains would wait a year to mature (share 0, `immature`).
    #expect(arm.subscriptionLineages == 20 && arm.matureShare == 1)
    #expect(r.arms[1].verdict != .immature)
    // Every payment is the high arm's: 20 purchases and 40 renewals of 9.99.
    #expect(arm.paidConversions == 20 && arm.renewals == 40 && arm.grossMinor == 60 * 999)
    #expect(r.arms[0].reporting.renewals == 0)
  }

  @Test func aCommitmentStartedLessThanAMonthAgoIsNotMatureYet() {
    let control = Ex.cohort("control", prefix: "c", n: 40, payers: 20, price: 499)
    var high = Ex.cohort("high", prefix: "h", n: 40, payers: 0, price: 999)
    for i in 0..<20 {
      let at = Fx.at("2026-11-20T10:00:00Z")
      var r = Fx.apple(
        "late-\(i)-1", original: "late-\(i)", product: "com.acme.pro.yearly", at: at,
        expires: BillingPeriod.oneMonth.advance(at), price: 999)
      r.commitment = Commitment(paymentNumber: 1, totalPayments: 12, remainingPayments: 11)
      high.records.append(r)
      high.credentials.append(Fx.cred(key: "late-\(i)", user: "h\(i)"))
    }
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments, catalog: Self.yearly)
    #expect(r.arms[1].reporting.matureShare == 0)
    #expect(r.arms[1].maturesAt == Fx.at("2026-12-20T10:00:00Z"))
  }

  /// A Play installments chain `token`: `months` monthly sales charges of the installments base plan from
  /// `start` (first order `GPA.<token>`, then `..0`, `..1`, …) and its resource, whose
  /// `installmentDetails` say 12 payments committed, `12 − months` to pay.
  static func installments(_ token: String, months: Int, from start: Instant) -> [StoreTransaction] {
    let base = "GPA.\(token)"
    var records: [StoreTransaction] = (0..<months).map { k in
      var r = Fx.playCharge(
        k == 0 ? base : "\(base)..\(k - 1)", at: BillingPeriod(months: k).advance(start),
        product: "pro:yearly-installments", amount: 999, tax: 0)
      r.currency = Fx.usd
      return r
    }
    var status = Fx.playStatus(
      token: token, latestOrder: months == 1 ? base : "\(base)..\(months - 2)", start: start,
      expiry: BillingPeriod(months: months).advance(start), product: "pro:yearly-installments")
    status.commitment = Commitment(totalPayments: 12, remainingPayments: 12 - months)
    records.append(status)
    return records
  }

  @Test func aPlayInstallmentsChainMaturesWithItsFirstMonth() {
    // High: 20 users on a Play installments base plan the catalog calls yearly, paying since 09-05.
    let control = Ex.cohort("control", prefix: "c", n: 40, payers: 20, price: 499)
    var high = Ex.cohort("high", prefix: "h", n: 40, payers: 0, price: 999)
    for i in 0..<20 {
      high.records += Self.installments("tok-\(i)", months: 3, from: Fx.at("2026-09-05T10:00:00Z"))
      high.credentials.append(Fx.cred(.play, key: "tok-\(i)", user: "h\(i)"))
    }
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments, catalog: Self.yearly)
    let arm = r.arms[1].reporting
    // By the catalog's period the chains would wait a year (share 0, `immature`): a month is theirs.
    #expect(arm.subscriptionLineages == 20 && arm.matureShare == 1)
    #expect(r.arms[1].verdict != .immature)
    #expect(arm.paidConversions == 20 && arm.renewals == 40 && arm.grossMinor == 60 * 999)
  }

  @Test func aPlayInstallmentsChainStartedLessThanAMonthAgoIsNotMatureYet() {
    let control = Ex.cohort("control", prefix: "c", n: 40, payers: 20, price: 499)
    var high = Ex.cohort("high", prefix: "h", n: 40, payers: 0, price: 999)
    for i in 0..<20 {
      high.records += Self.installments("late-\(i)", months: 1, from: Fx.at("2026-11-20T10:00:00Z"))
      high.credentials.append(Fx.cred(.play, key: "late-\(i)", user: "h\(i)"))
    }
    let r = Ex.readout(
      control.records + high.records, credentials: control.credentials + high.credentials,
      assignments: control.assignments + high.assignments, catalog: Self.yearly)
    #expect(r.arms[1].reporting.matureShare == 0)
    #expect(r.arms[1].maturesAt == Fx.at("2026-12-20T10:00:00Z"))
  }
}
