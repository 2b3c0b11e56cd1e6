import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore

/// double_billing: one person paying twice for one tier; family sharing and upgrades are not.
@Suite struct DoubleBillingRuleTests {
  let tiered: Catalog = {
    var c = Catalog()
    c.set("app_store:com.acme.pro.monthly", Catalog.Product(tier: "pro"))
    c.set("app_store:com.acme.pro.yearly", Catalog.Product(period: BillingPeriod(months: 12), tier: "pro"))
    c.set("play:pro:monthly", Catalog.Product(tier: "pro"))
    c.set("play:pro:yearly", Catalog.Product(period: BillingPeriod(months: 12), tier: "pro"))
    return c
  }()

  func run(_ records: [StoreTransaction], _ credentials: [Credential], catalog: Catalog? = nil) -> [Finding] {
    let catalog = catalog ?? tiered
    var options = ReconcileOptions(asOf: Fx.t)
    options.catalog = catalog
    return Reconciler.findings(
      ledger: Fx.ledger(records, catalog: catalog), entitlements: [], credentials: credentials, goodwill: [],
      options: options
    ).filter { $0.kind == .doubleBilling }
  }

  func ago(_ days: Int64) -> Instant { Fx.t.adding(ms: -Fx.days(days)) }

  @Test func appStoreAndPlayBothRenewing() {
    let apple = Fx.apple("1", original: "1", at: ago(40), expires: ago(10))
    let apple2 = Fx.apple("2", original: "1", at: ago(10), expires: ago(-20))
    let play = Fx.playStatus(token: "tok", latestOrder: "GPA.1", start: ago(20), expiry: ago(-10))
    let charge = Fx.playCharge("GPA.1", at: ago(20))
    let f = run(
      [apple, apple2, play, charge], [Fx.cred(key: "1", user: "u1"), Fx.cred(.play, key: "tok", user: "u1")])
    #expect(f.map(\.reason) == [.acrossStores])
    #expect(f.first?.store == .play)
    #expect(f.first?.chainKey == "tok")
    #expect(f.first?.userId == "u1")
    #expect(f.first?.amountMinor == 499)
    #expect(f.first?.currency?.code == "EUR")
    #expect(f.first?.detail.contains("(20.0 days") == true)
    // Without a tier each product is its own: no double billing across stores.
    #expect(
      run(
        [apple, apple2, play, charge],
        [Fx.cred(key: "1", user: "u1"), Fx.cred(.play, key: "tok", user: "u1")],
        catalog: Catalog()
      ).isEmpty)
  }

  @Test func twoChainsInOneStoreThroughTheAccountToken() {
    var a = Fx.apple("1", original: "1", at: ago(20), expires: ago(-10))
    var b = Fx.apple("2", original: "2", at: ago(15), expires: ago(-15))
    a.accountToken = "6f1c"
    b.accountToken = "6f1c"
    let f = run([a, b], [])
    #expect(f.map(\.reason) == [.withinStore])
    #expect(f.first?.chainKey == "2")
    #expect(f.first?.userId == "6f1c")
    #expect(f.first?.amountMinor == 499)
    // Different people: no finding.
    b.accountToken = "77aa"
    #expect(run([a, b], []).isEmpty)
  }

  @Test func overlapWithinTheToleranceIsNot() {
    let a = Fx.apple("1", original: "1", at: ago(40), expires: ago(10).adding(ms: 12 * 3_600_000))
    let b = Fx.apple("2", original: "2", at: ago(10), expires: ago(-20))
    #expect(run([a, b], [Fx.cred(key: "1", user: "u1"), Fx.cred(key: "2", user: "u1")]).isEmpty)
  }

  @Test func familySharedAccessIsNotDoubleBilling() {
    let own = Fx.apple("1", original: "1", at: ago(20), expires: ago(-10))
    let family = Fx.apple("2", original: "2", at: ago(15), expires: ago(-15), family: true)
    #expect(run([own, family], [Fx.cred(key: "1", user: "u1"), Fx.cred(key: "2", user: "u1")]).isEmpty)
  }

  @Test func upgradeInsideOneChainIsNot() {
    let monthly = Fx.apple("1", original: "1", at: ago(20), expires: ago(-10), upgraded: true)
    let yearly = Fx.apple(
      "2", original: "1", product: "com.acme.pro.yearly", at: ago(5), expires: ago(-360), price: 4999)
    #expect(run([monthly, yearly], [Fx.cred(key: "1", user: "u1")]).isEmpty)
  }

  @Test func playUpgradeEndsTheOldChainUnlessItKeepsRenewing() {
    let oldCharge = Fx.playCharge("GPA.1", at: ago(20))
    let newCharge = Fx.playCharge("GPA.2", at: ago(5), product: "pro:yearly", amount: 4999)
    let new = Fx.playStatus(
      token: "new", latestOrder: "GPA.2", start: ago(5), expiry: ago(-360), product: "pro:yearly",
      linked: "old")
    let creds = [Fx.cred(.play, key: "old", user: "u1"), Fx.cred(.play, key: "new", user: "u1")]
    let replaced = Fx.playStatus(token: "old", latestOrder: "GPA.1", start: ago(20), expiry: ago(5))
    #expect(run([replaced, oldCharge, new, newCharge], creds).isEmpty)
    // The old subscription was left renewing: billed for both.
    let renewing = Fx.playStatus(token: "old", latestOrder: "GPA.1", start: ago(20), expiry: ago(-10))
    let f = run([renewing, oldCharge, new, newCharge], creds)
    #expect(f.map(\.reason) == [.withinStore])
    #expect(f.first?.chainKey == "new")
    #expect(f.first?.amountMinor == 4999)
  }

  @Test func unpaidPeriodsDoNotCount() {
    let a = Fx.apple("1", original: "1", at: ago(20), expires: ago(-10))
    let trial = Fx.apple("2", original: "2", at: ago(15), expires: ago(-15), price: 0)
    let sandbox = Fx.apple("3", original: "3", at: ago(15), expires: ago(-15), sandbox: true)
    let refunded = Fx.apple(
      "4", original: "4", at: ago(15), expires: ago(-15), revokedAt: ago(14), revocationType: "REFUND_FULL")
    let creds = ["1", "2", "3", "4"].map { Fx.cred(key: $0, user: "u1") }
    #expect(run([a, trial, sandbox, refunded], creds).isEmpty)
  }
}
