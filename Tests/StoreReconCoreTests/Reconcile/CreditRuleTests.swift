import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore

/// uncredited_purchase, double_credit, credit_not_reversed and orphan_credit: each rule and its controls.
@Suite struct CreditRuleTests {
  let catalog: Catalog = {
    var c = Catalog()
    c.set("com.acme.coins100", Catalog.Product(type: .consumable, units: 100))
    c.set("play:coins100", Catalog.Product(type: .consumable, units: 100))
    return c
  }()
  let creditKinds: Set<Finding.Kind> = [
    .uncreditedPurchase, .doubleCredit, .creditNotReversed, .orphanCredit,
  ]

  func coins(
    _ id: String, hoursAgo: Int64, price: Int64 = 99, quantity: UInt16 = 1, sandbox: Bool = false,
    revokedHoursAgo: Int64? = nil
  ) -> StoreTransaction {
    var r = Fx.apple(
      id, original: id, product: "com.acme.coins100", at: Fx.t.adding(ms: -hoursAgo * 3_600_000),
      expires: nil,
      price: price, sandbox: sandbox, revokedAt: revokedHoursAgo.map { Fx.t.adding(ms: -$0 * 3_600_000) },
      revocationType: revokedHoursAgo == nil ? nil : "REFUND_FULL", type: "Consumable")
    r.quantity = quantity
    return r
  }

  func credit(
    _ id: String, tx: String, user: String = "u1", store: Store = .appStore, quantity: Int64 = 100,
    hoursAgo: Int64 = 20, reversedHoursAgo: Int64? = nil
  ) -> CreditRow {
    CreditRow(
      creditId: id, userId: user, store: store, transactionId: tx,
      productId: store == .play ? "coins100" : "com.acme.coins100", quantity: quantity,
      creditedAt: Fx.t.adding(ms: -hoursAgo * 3_600_000),
      reversedAt: reversedHoursAgo.map { Fx.t.adding(ms: -$0 * 3_600_000) }, origin: Fx.origin)
  }

  func run(_ records: [StoreTransaction], _ credits: [CreditRow]?, _ credentials: [Credential] = [])
    -> [Finding]
  {
    var options = ReconcileOptions(asOf: Fx.t)
    options.catalog = catalog
    return Reconciler.findings(
      ledger: Fx.ledger(records, catalog: catalog), entitlements: [], credentials: credentials, goodwill: [],
      credits: credits, options: options
    ).filter { creditKinds.contains($0.kind) }
  }

  @Test func uncreditedAfterTheGraceOnly() {
    let old = coins("1", hoursAgo: 10)
    let fresh = coins("2", hoursAgo: 2)
    let credited = coins("3", hoursAgo: 30)
    let f = run([old, fresh, credited], [credit("c3", tx: "3")], [Fx.cred(key: "1", user: "u7")])
    #expect(f.map(\.reason) == [.notCredited])
    #expect(f.first?.chainKey == "1")
    #expect(f.first?.userId == "u7")
    #expect(f.first?.amountMinor == 99)
    #expect(f.first?.currency?.code == "USD")
  }

  @Test func creditGraceIsConfigurable() {
    var options = ReconcileOptions(asOf: Fx.t)
    options.catalog = catalog
    options.creditGraceMs = 12 * 3_600_000
    let f = Reconciler.findings(
      ledger: Fx.ledger([coins("1", hoursAgo: 10)], catalog: catalog), entitlements: [], credentials: [],
      goodwill: [], credits: [], options: options)
    #expect(f.filter { creditKinds.contains($0.kind) }.isEmpty)
  }

  @Test func noMoneyNothingToCredit() {
    let sandbox = coins("1", hoursAgo: 30, sandbox: true)
    let free = coins("2", hoursAgo: 30, price: 0)
    let refunded = coins("3", hoursAgo: 30, revokedHoursAgo: 20)
    #expect(run([sandbox, free, refunded], []).isEmpty)
  }

  @Test func withoutTheContractNoCreditRules() {
    #expect(run([coins("1", hoursAgo: 30)], nil).isEmpty)
  }

  @Test func aReversedCreditOfAStandingPurchaseIsUncredited() {
    let f = run([coins("1", hoursAgo: 30)], [credit("c1", tx: "1", user: "u2", reversedHoursAgo: 5)])
    #expect(f.map(\.reason) == [.notCredited])
    #expect(f.first?.userId == "u2")
  }

  @Test func creditedTwice() {
    let f = run([coins("1", hoursAgo: 30)], [credit("c1", tx: "1"), credit("c2", tx: "1", hoursAgo: 19)])
    #expect(f.map(\.reason) == [.creditedTwice])
    #expect(f.first?.amountMinor == 99)
    #expect(f.first?.userId == "u1")
    // One reversed: credited once.
    #expect(
      run([coins("1", hoursAgo: 30)], [credit("c1", tx: "1"), credit("c2", tx: "1", reversedHoursAgo: 3)])
        .isEmpty)
    // The second arrives after T: not yet.
    #expect(
      run([coins("1", hoursAgo: 30)], [credit("c1", tx: "1"), credit("c2", tx: "1", hoursAgo: -3)]).isEmpty)
  }

  @Test func overCreditedHonoursQuantity() {
    let two = coins("1", hoursAgo: 30, price: 198, quantity: 2)
    let f = run([two], [credit("c1", tx: "1", quantity: 300)])
    #expect(f.map(\.reason) == [.overCredited])
    // 100 units too many of 200 paid for 1.98: 0.99 at stake.
    #expect(f.first?.amountMinor == 99)
    #expect(run([two], [credit("c1", tx: "1", quantity: 200)]).isEmpty)
    #expect(run([two], [credit("c1", tx: "1", quantity: 150)]).isEmpty)
  }

  @Test func refundedButCreditStands() {
    let refunded = coins("1", hoursAgo: 30, revokedHoursAgo: 10)
    let f = run([refunded], [credit("c1", tx: "1", user: "u3")])
    #expect(f.map(\.reason) == [.refundNotReversed])
    #expect(f.first?.userId == "u3")
    #expect(f.first?.amountMinor == 99)
    #expect(run([refunded], [credit("c1", tx: "1", reversedHoursAgo: 9)]).isEmpty)
    // Refunded after T: not yet.
    #expect(run([coins("2", hoursAgo: 30, revokedHoursAgo: -5)], [credit("c2", tx: "2")]).isEmpty)
  }

  @Test func playRefundRowOfAConsumableOrder() {
    var order = Fx.playCharge(
      "GPA.1111-2222-3333-44444", at: Fx.t.adding(ms: -Fx.days(2)), product: "coins100")
    order.productTypeRaw = "inapp"
    let refund = Fx.playRefund("GPA.1111-2222-3333-44444", at: Fx.t.adding(ms: -Fx.days(1)))
    let f = run([order, refund], [credit("c1", tx: "GPA.1111-2222-3333-44444", store: .play)])
    #expect(f.map(\.reason) == [.refundNotReversed])
    #expect(f.first?.store == .play)
    #expect(f.first?.currency?.code == "EUR")
    #expect(run([order], [credit("c1", tx: "GPA.1111-2222-3333-44444", store: .play)]).isEmpty)
  }

  @Test func orphanCredits() {
    let sandbox = coins("9", hoursAgo: 30, sandbox: true)
    let f = run(
      [sandbox],
      [
        credit("c1", tx: "404", user: "u1"), credit("c2", tx: "9", user: "u2"),
        credit("c3", tx: "405", reversedHoursAgo: 1), credit("c4", tx: "406", hoursAgo: -1),
      ])
    #expect(f.map(\.reason) == [.sandboxCredit, .unknownTransaction])
    #expect(f.map(\.chainKey) == ["9", "404"])
    #expect(f.map(\.userId) == ["u2", "u1"])
    #expect(f.allSatisfy { $0.amountMinor == nil })
  }

  @Test func aSubscriptionIsNeverACreditMatter() {
    let sub = Fx.appleMonthly("5", until: Fx.t.adding(ms: Fx.days(10)))
    // Its transaction is not a consumable purchase: a credit naming it is an orphan.
    let f = run([sub], [credit("c1", tx: "5")])
    #expect(f.map(\.reason) == [.unknownTransaction])
  }
}
