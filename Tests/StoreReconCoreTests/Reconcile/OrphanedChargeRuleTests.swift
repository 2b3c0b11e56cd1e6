import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore

/// orphaned_charge and duplicate_claim: each rule triggered and not triggered.
@Suite struct OrphanedChargeRuleTests {
  let later = Fx.t.adding(ms: Fx.days(20))

  @Test func unclaimedPaidChain() {
    let a = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(40)), expires: Fx.t.adding(ms: -Fx.days(10)))
    let b = Fx.apple("2", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    let f = Fx.findings([a, b], [])
    #expect(f.map(\.reason) == [.unclaimed])
    #expect(f.first?.amountMinor == 998)
    #expect(f.first?.currency?.code == "USD")
    #expect(f.first?.userId == "")
  }

  @Test func claimedByCredentialOrEntitlementIsNotUnclaimed() {
    let a = Fx.apple("1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    #expect(
      Fx.findings([a], [], [Fx.cred(key: "1", user: "u1")]).map(\.reason).filter { $0 == .unclaimed }.isEmpty)
    #expect(Fx.findings([a], [Fx.ent("e1", user: "u1", key: "1", expires: later)]).isEmpty)
  }

  @Test func noMoneyNoOrphan() {
    let sandbox = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later, sandbox: true)
    let trial = Fx.apple("2", original: "2", at: Fx.t.adding(ms: -Fx.days(3)), expires: later, price: 0)
    let family = Fx.apple("3", original: "3", at: Fx.t.adding(ms: -Fx.days(3)), expires: later, family: true)
    let refunded = Fx.apple(
      "4", original: "4", at: Fx.t.adding(ms: -Fx.days(3)), expires: later,
      revokedAt: Fx.t.adding(ms: -Fx.days(1)),
      revocationType: "REFUND_FULL")
    let pending = Fx.playStatus(
      token: "p", latestOrder: "GPA.9", start: .distantPast, expiry: later, pending: true)
    let pendingCharge = Fx.playCharge("GPA.9", at: Fx.t.adding(ms: -Fx.days(1)))
    #expect(Fx.findings([sandbox, trial, family, refunded, pending, pendingCharge], []).isEmpty)
  }

  @Test func lockedOutWhenPaidButEntitlementInactive() {
    let a = Fx.apple("1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    let expired = Fx.ent("e1", user: "u1", key: "1", status: .expired, expires: Fx.t.adding(ms: -Fx.days(1)))
    let f = Fx.findings([a], [expired], [Fx.cred(key: "1", user: "u1")])
    #expect(f.map(\.reason) == [.lockedOut])
    #expect(f.first?.userId == "u1")
    #expect(f.first?.amountMinor == 499)
    // Credential only, no entitlement at all: also locked out.
    #expect(Fx.findings([a], [], [Fx.cred(key: "1", user: "u1")]).map(\.reason) == [.lockedOut])
  }

  @Test func notLockedOutWithinToleranceOrWhenActiveOrRefunded() {
    let soon = Fx.apple(
      "1", original: "1", at: Fx.t.adding(ms: -Fx.days(30)), expires: Fx.t.adding(ms: 24 * 3_600_000))
    let expired = Fx.ent("e1", user: "u1", key: "1", status: .expired, expires: Fx.t.adding(ms: -Fx.days(1)))
    #expect(Fx.findings([soon], [expired]).isEmpty)
    let a = Fx.apple("2", original: "2", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    #expect(Fx.findings([a], [Fx.ent("e2", user: "u2", key: "2", expires: later)]).isEmpty)
    let refunded = Fx.apple(
      "3", original: "3", at: Fx.t.adding(ms: -Fx.days(10)), expires: later,
      revokedAt: Fx.t.adding(ms: -Fx.days(2)),
      revocationType: "REFUND_FULL")
    let e3 = Fx.ent("e3", user: "u3", key: "3", status: .revoked, expires: later)
    #expect(Fx.findings([refunded], [e3]).isEmpty)
  }

  @Test func supersededChainIsNeverLockedOut() {
    let old = Fx.playStatus(
      token: "old", latestOrder: "GPA.1", start: Fx.t.adding(ms: -Fx.days(40)), expiry: later)
    let oldCharge = Fx.playCharge("GPA.1", at: Fx.t.adding(ms: -Fx.days(40)))
    let new = Fx.playStatus(
      token: "new", latestOrder: "GPA.2", start: Fx.t.adding(ms: -Fx.days(5)), expiry: later, linked: "old")
    let eOld = Fx.ent(
      "e1", user: "u1", product: "pro:monthly", source: .play, key: "old", status: .expired, expires: Fx.t)
    let eNew = Fx.ent("e2", user: "u1", product: "pro:monthly", source: .play, key: "new", expires: later)
    #expect(Fx.findings([old, oldCharge, new], [eOld, eNew]).isEmpty)
  }

  @Test func secondUserIsADuplicateClaim() {
    let a = Fx.apple("1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    let f = Fx.findings(
      [a], [Fx.ent("e1", user: "u1", key: "1", starts: a.at, expires: later)],
      [
        Fx.cred(key: "1", user: "u1", at: a.at),
        Fx.cred(key: "1", user: "u2", at: a.at.adding(ms: Fx.days(2))),
      ])
    #expect(f.map(\.reason) == [.multipleUsers])
    #expect(f.first?.userId == "u2")
    #expect(f.first?.kind == .duplicateClaim)
  }

  @Test func oneUserClaimingTwiceIsNotADuplicate() {
    let a = Fx.apple("1", original: "1", at: Fx.t.adding(ms: -Fx.days(10)), expires: later)
    let f = Fx.findings(
      [a], [Fx.ent("e1", user: "u1", key: "1", expires: later)],
      [Fx.cred(key: "1", user: "u1"), Fx.cred(key: "1", user: "u1")])
    #expect(f.isEmpty)
  }

  @Test func findingKeyIsStableAndDistinct() {
    let k1 = Finding.key(kind: .orphanedCharge, store: .appStore, chainKey: "1", userId: "")
    #expect(k1 == Finding.key(kind: .orphanedCharge, store: .appStore, chainKey: "1", userId: ""))
    #expect(k1 != Finding.key(kind: .orphanedCharge, store: .play, chainKey: "1", userId: ""))
    #expect(k1.count == 16)
    // SHA-256 of "abc" is the FIPS 180-2 test vector.
    #expect(
      SHA256Digest.hex(of: Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
