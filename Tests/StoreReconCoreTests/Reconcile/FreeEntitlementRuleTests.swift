import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Each free_entitlement rule: the smallest chain + entitlement that triggers it, and one that must not.
@Suite struct FreeEntitlementRuleTests {
  let later = Fx.t.adding(ms: Fx.days(20))

  @Test func noStoreRecordTriggersForUnknownKey() {
    let f = Fx.findings([], [Fx.ent("e1", user: "u1", key: "999", expires: later)])
    #expect(f.map(\.reason) == [.noStoreRecord])
    #expect(f.first?.chainKey == "999")
    #expect(f.first?.userId == "u1")
  }

  @Test func noStoreRecordIgnoresGoodwillPromoManualAndInactive() {
    let f = Fx.findings(
      [],
      [
        Fx.ent("e1", user: "u1", source: .goodwill, key: nil, expires: later),
        Fx.ent("e2", user: "u2", source: .promo, key: nil, expires: nil),
        Fx.ent("e3", user: "u3", source: .manual, key: "x", expires: nil),
        Fx.ent("e4", user: "u4", key: "404", status: .expired, expires: later),
        Fx.ent("e5", user: "u5", key: "405", expires: Fx.t),  // ends exactly at T: not active
      ])
    #expect(f.isEmpty)
  }

  @Test func sandboxChainBackingEntitlement() {
    let chain = Fx.apple("1", original: "1", at: Fx.t.adding(ms: -Fx.days(5)), expires: later, sandbox: true)
    let f = Fx.findings([chain], [Fx.ent("e1", user: "u1", key: "1", expires: later)])
    #expect(f.map(\.reason) == [.sandbox])
    // The same chain in production backs the entitlement.
    let prod = Fx.apple("1", original: "1", at: Fx.t.adding(ms: -Fx.days(5)), expires: later)
    #expect(Fx.findings([prod], [Fx.ent("e1", user: "u1", key: "1", expires: later)]).isEmpty)
  }

  @Test func playTestPurchaseIsSandbox() {
    let s = Fx.playStatus(
      token: "tok", latestOrder: "GPA.1", start: Fx.t.adding(ms: -Fx.days(3)), expiry: later, test: true)
    let f = Fx.findings(
      [s], [Fx.ent("e1", user: "u1", product: "pro:monthly", source: .play, key: "tok", expires: later)])
    #expect(f.map(\.reason) == [.sandbox])
  }

  @Test func refundOfLatestPeriodIsRefunded() {
    let start = Fx.t.adding(ms: -Fx.days(10))
    let c = Fx.apple(
      "1", original: "1", at: start, expires: later, revokedAt: Fx.t.adding(ms: -Fx.days(2)),
      revocationType: "REFUND_FULL")
    let f = Fx.findings([c], [Fx.ent("e1", user: "u1", key: "1", expires: later)])
    #expect(f.map(\.reason) == [.refunded])
    #expect(f.first?.amountMinor == 499)
  }

  @Test func refundAfterTDoesNotCount() {
    let c = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later, revokedAt: Fx.t.adding(ms: 1),
      revocationType: "REFUND_FULL")
    #expect(Fx.findings([c], [Fx.ent("e1", user: "u1", key: "1", expires: later)]).isEmpty)
  }

  @Test func refundOfOldPeriodInRenewedChainIsNotRefunded() {
    let old = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(40)), expires: Fx.t.adding(ms: -Fx.days(10)),
      revokedAt: Fx.t.adding(ms: -Fx.days(20)), revocationType: "REFUND_PRORATED", percent: 50_000)
    let renewal = Fx.apple("2", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    #expect(Fx.findings([old, renewal], [Fx.ent("e1", user: "u1", key: "1", expires: later)]).isEmpty)
  }

  @Test func familyRevokeIsRefundedWithFamilyDetail() {
    let c = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later, family: true,
      revokedAt: Fx.t.adding(ms: -Fx.days(1)), revocationType: "FAMILY_REVOKE")
    let f = Fx.findings([c], [Fx.ent("e1", user: "u1", key: "1", expires: later)])
    #expect(f.map(\.reason) == [.refunded])
    #expect(f.first?.detail.contains("family sharing") == true)
  }

  @Test func refundedComesBeforeStoreExpired() {
    // Refunded 60 days ago: the chain also looks expired, but the root cause is the refund.
    let c = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(90)), expires: Fx.t.adding(ms: -Fx.days(60)),
      revokedAt: Fx.t.adding(ms: -Fx.days(80)), revocationType: "REFUND_FULL")
    #expect(
      Fx.findings([c], [Fx.ent("e1", user: "u1", key: "1", expires: later)]).map(\.reason) == [.refunded])
  }

  @Test func playRefundRowOrVoidOfLatestOrderIsRefunded() {
    let first = Fx.playCharge("GPA.1", at: Fx.t.adding(ms: -Fx.days(40)))
    let renewal = Fx.playCharge("GPA.1..0", at: Fx.t.adding(ms: -Fx.days(10)))
    let status = Fx.playStatus(token: "tok", latestOrder: "GPA.1..0", start: first.at, expiry: later)
    let e = Fx.ent("e1", user: "u1", product: "pro:monthly", source: .play, key: "tok", expires: later)
    #expect(Fx.findings([first, renewal, status], [e]).isEmpty)
    let refund = Fx.playRefund("GPA.1..0", at: Fx.t.adding(ms: -Fx.days(1)))
    #expect(Fx.findings([first, renewal, status, refund], [e]).map(\.reason) == [.refunded])
    let void = Fx.playVoid(token: "tok", order: "GPA.1..0", at: Fx.t.adding(ms: -Fx.days(1)))
    #expect(Fx.findings([first, renewal, status, void], [e]).map(\.reason) == [.refunded])
    // Voiding the first order of a chain that renewed since does not make it refunded.
    let oldVoid = Fx.playVoid(token: "tok", order: "GPA.1", at: Fx.t.adding(ms: -Fx.days(20)))
    #expect(Fx.findings([first, renewal, status, oldVoid], [e]).isEmpty)
  }

  @Test func supersededPlayChainStillGranting() {
    let old = Fx.playStatus(
      token: "old", latestOrder: "GPA.1", start: Fx.t.adding(ms: -Fx.days(40)), expiry: later)
    let new = Fx.playStatus(
      token: "new", latestOrder: "GPA.2", start: Fx.t.adding(ms: -Fx.days(5)), expiry: later,
      product: "pro:yearly",
      linked: "old")
    let eOld = Fx.ent("e1", user: "u1", product: "pro:monthly", source: .play, key: "old", expires: later)
    let eNew = Fx.ent("e2", user: "u1", product: "pro:yearly", source: .play, key: "new", expires: later)
    let f = Fx.findings([old, new], [eOld, eNew])
    #expect(f.map(\.reason) == [.superseded])
    #expect(f.first?.chainKey == "old")
    #expect(Fx.findings([old, new], [eNew]).isEmpty)
  }

  @Test func storeExpiredBeyondGrace() {
    // App Store grace 16 days: paid through 17 days before T is expired; 15 days before is not.
    let lapsed = Fx.appleMonthly("1", until: Fx.t.adding(ms: -Fx.days(17)))
    let f = Fx.findings([lapsed], [Fx.ent("e1", user: "u1", key: "1", expires: later)])
    #expect(f.map(\.reason) == [.storeExpired])
    let inGrace = Fx.appleMonthly("2", until: Fx.t.adding(ms: -Fx.days(15)))
    let e = Fx.ent(
      "e2", user: "u2", key: "2", status: .grace, expires: inGrace.expiresAt!.adding(ms: Fx.days(16)))
    #expect(Fx.findings([inGrace], [e]).isEmpty)
  }

  @Test func overextendedBoundIsStrict() {
    let paid = Fx.t.adding(ms: Fx.days(3))
    let chain = Fx.appleMonthly("1", until: paid)
    let bound = paid.adding(ms: Fx.days(16) + 24 * 3_600_000)
    #expect(Fx.findings([chain], [Fx.ent("e1", user: "u1", key: "1", expires: bound)]).isEmpty)
    let over = Fx.findings([chain], [Fx.ent("e1", user: "u1", key: "1", expires: bound.adding(ms: 1))])
    #expect(over.map(\.reason) == [.overextended])
    let forever = Fx.findings([chain], [Fx.ent("e1", user: "u1", key: "1", expires: nil)])
    #expect(forever.map(\.reason) == [.overextended])
  }

  @Test func lifetimeUnlockIsNeverOverextended() {
    let unlock = Fx.apple(
      "9", original: "9", product: "com.acme.lifetime", at: Fx.t.adding(ms: -Fx.days(100)), expires: nil,
      price: 2999,
      type: "Non-Consumable")
    #expect(
      Fx.findings([unlock], [Fx.ent("e1", user: "u1", product: "com.acme.lifetime", key: "9", expires: nil)])
        .isEmpty)
  }

  @Test func productMismatch() {
    let chain = Fx.appleMonthly("1", until: later)
    let f = Fx.findings(
      [chain], [Fx.ent("e1", user: "u1", product: "com.acme.pro.yearly", key: "1", expires: later)])
    #expect(f.map(\.reason) == [.productMismatch])
    #expect(Fx.findings([chain], [Fx.ent("e1", user: "u1", key: "1", expires: later)]).isEmpty)
  }

  @Test func appleUpgradeInsideChainBacksTheNewProduct() {
    let old = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(20)), expires: Fx.t.adding(ms: Fx.days(10)),
      upgraded: true)
    let new = Fx.apple(
      "2", original: "1", product: "com.acme.pro.yearly", at: Fx.t.adding(ms: -Fx.days(5)),
      expires: Fx.t.adding(ms: Fx.days(360)),
      price: 3999)
    let ledger = Fx.ledger([old, new])
    #expect(ledger.chain(store: .appStore, key: "1")?.currentProduct == "com.acme.pro.yearly")
    let e = Fx.ent("e1", user: "u1", product: "com.acme.pro.yearly", key: "1", expires: new.expiresAt)
    #expect(Fx.findings([old, new], [e]).isEmpty)
    // An upgraded transaction alone stops at the next one's start, so it no longer backs the old product's extension.
    let upgradedOnly = Fx.ledger([
      old, Fx.apple("2", original: "1", at: Fx.t.adding(ms: -Fx.days(5)), expires: nil, price: 0),
    ])
    #expect(upgradedOnly.chains.first?.paidThrough != old.expiresAt)
  }

  @Test func goodwillCoveringTExcusesOverextension() {
    let chain = Fx.appleMonthly("1", until: Fx.t.adding(ms: Fx.days(3)))
    let e = Fx.ent("e1", user: "u1", key: "1", expires: Fx.t.adding(ms: Fx.days(90)))
    let grant = GoodwillGrant(
      grantId: "g1", userId: "u1", productId: "com.acme.pro.monthly", startsAt: Fx.t.adding(ms: -Fx.days(1)),
      endsAt: Fx.t.adding(ms: Fx.days(90)), reason: "outage", origin: Fx.origin)
    #expect(Fx.findings([chain], [e]).map(\.reason) == [.overextended])
    #expect(Fx.findings([chain], [e], goodwill: [grant]).isEmpty)
  }

  @Test func playKeyMayBeAnyOrderIdOfTheChain() {
    let first = Fx.playCharge("GPA.7", at: Fx.t.adding(ms: -Fx.days(40)))
    let renewal = Fx.playCharge("GPA.7..0", at: Fx.t.adding(ms: -Fx.days(10)))
    let status = Fx.playStatus(
      token: "tok7", latestOrder: "GPA.7..0", start: first.at, expiry: Fx.t.adding(ms: Fx.days(20)))
    for key in ["tok7", "GPA.7", "GPA.7..0"] {
      let e = Fx.ent(
        "e1", user: "u1", product: "pro:monthly", source: .play, key: key,
        expires: Fx.t.adding(ms: Fx.days(20)))
      #expect(Fx.findings([first, renewal, status], [e]).isEmpty, "key \(key)")
    }
  }

  @Test func playSalesOnlyChainPaidThroughLastChargePlusCatalogPeriod() {
    var catalog = Catalog()
    catalog.set("play:pro:yearly", Catalog.Product(type: .autoRenewable, period: BillingPeriod(months: 12)))
    let charge = Fx.playCharge("GPA.5", at: Fx.at("2026-03-15T10:00:00Z"), product: "pro:yearly")
    let ledger = Fx.ledger([charge], catalog: catalog)
    #expect(ledger.chain(store: .play, key: "GPA.5")?.paidThrough == Fx.at("2027-03-15T10:00:00Z"))
    let monthly = Fx.ledger([Fx.playCharge("GPA.6", at: Fx.at("2026-01-31T10:00:00Z"))])
    #expect(monthly.chain(store: .play, key: "GPA.6")?.paidThrough == Fx.at("2026-02-28T10:00:00Z"))
  }
}

@Suite struct UncheckedStoreTests {
  @Test func entitlementsOfAStoreWithoutExportsAreNotCheckedButCounted() {
    let later = Fx.t.adding(ms: Fx.days(20))
    let stripe = Fx.ent("e1", user: "u1", product: "pro", source: .stripe, key: "sub_1", expires: later)
    let apple = Fx.ent("e2", user: "u2", key: "404", expires: later)
    var options = ReconcileOptions(asOf: Fx.t)
    options.storesWithData = [.appStore]
    let f = Reconciler.findings(
      ledger: Fx.ledger([]), entitlements: [stripe, apple], credentials: [], goodwill: [], options: options)
    #expect(f.map(\.userId) == ["u2"])
    #expect(Reconciler.uncheckedEntitlements([stripe, apple], options: options) == [.stripe: 1])
  }
}
