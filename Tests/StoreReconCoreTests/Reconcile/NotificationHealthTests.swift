import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// notification_unprocessed, notification_not_applied and notification_missing: each rule, its
/// boundaries and its controls (docs/rules.md#notification-health).
@Suite struct NotificationHealthTests {
  let kinds: Set<Finding.Kind> = [.notificationUnprocessed, .notificationNotApplied, .notificationMissing]

  func hours(_ n: Int64) -> Instant { Fx.t.adding(ms: -n * 3_600_000) }

  func note(
    _ id: String, _ type: String, chain: String?, signedHoursAgo: Int64, receivedHoursAgo: Int64? = nil,
    processed: Bool = true, store: Store = .appStore
  ) -> StoreNotification {
    var n = StoreNotification(store: store, notificationId: id, type: type, origin: Fx.origin)
    n.chainKey = chain
    n.eventAt = hours(signedHoursAgo)
    let received = hours(receivedHoursAgo ?? signedHoursAgo)
    n.receivedAt = received
    n.processedAt = processed ? received.adding(ms: 1000) : nil
    return n
  }

  func run(
    _ records: [StoreTransaction], _ entitlements: [Entitlement], _ log: [StoreNotification],
    history: [StoreNotification] = []
  ) -> [Finding] {
    Reconciler.findings(
      ledger: Fx.ledger(records), entitlements: entitlements, credentials: [], goodwill: [],
      notifications: NotificationLog(received: log, history: history), options: ReconcileOptions(asOf: Fx.t)
    ).filter { kinds.contains($0.kind) }
  }

  /// A monthly chain `key` paid through 10 days after T, and its active entitlement for `u1`.
  var paid: (StoreTransaction, Entitlement) {
    (
      Fx.appleMonthly("A1", until: Fx.t.adding(ms: Fx.days(10))),
      Fx.ent("e1", user: "u1", key: "A1", expires: nil)
    )
  }

  @Test func unprocessedOnlyOnceOlderThanTheAge() {
    let (record, e) = paid
    let old = note("n-old", "DID_RENEW", chain: "A1", signedHoursAgo: 7, processed: false)
    let young = note("n-young", "DID_RENEW", chain: "A1", signedHoursAgo: 5, processed: false)
    let done = note("n-done", "DID_RENEW", chain: "A1", signedHoursAgo: 30)
    let f = run([record], [e], [old, young, done])
    #expect(f.map(\.reason) == [.unprocessed])
    #expect(f.first?.notificationId == "n-old")
    #expect(f.first?.userId == "u1")
    #expect(f.first?.detail.contains("DID_RENEW") == true)
    #expect(f.first?.detail.contains("7 h old") == true)
  }

  @Test func processedAfterTIsUnprocessedAtT() {
    let (record, e) = paid
    var late = note("n1", "DID_RENEW", chain: "A1", signedHoursAgo: 20)
    late.processedAt = Fx.t.adding(ms: 1000)
    #expect(run([record], [e], [late]).map(\.reason) == [.unprocessed])
  }

  @Test func aRefundProcessedWhileTheEntitlementIsActive() {
    let refunded = Fx.apple(
      "A1", original: "A1", at: hours(24 * 10), expires: Fx.t.adding(ms: Fx.days(20)), revokedAt: hours(48))
    let e = Fx.ent("e1", user: "u1", key: "A1", expires: nil)
    let buy = note("n1", "SUBSCRIBED", chain: "A1", signedHoursAgo: 24 * 10)
    let refund = note("n2", "REFUND", chain: "A1", signedHoursAgo: 48)
    let f = run([refunded], [e], [buy, refund])
    #expect(f.map(\.reason) == [.revocationNotApplied])
    #expect(f.first?.notificationId == "n2")
    // The same entitlement row expired: the refund was applied.
    let applied = Fx.ent("e1", user: "u1", key: "A1", status: .revoked, expires: nil)
    #expect(run([refunded], [applied], [buy, refund]).isEmpty)
  }

  @Test func outOfOrderArrivalUsesTheStoresTime() {
    // The refund arrived first (received earlier) but the renewal Apple signed later is the latest
    // state: the chain is paid, the entitlement active, nothing is wrong.
    let (record, e) = paid
    let refund = note("n1", "REFUND", chain: "A1", signedHoursAgo: 100, receivedHoursAgo: 90)
    let renew = note("n2", "DID_RENEW", chain: "A1", signedHoursAgo: 95, receivedHoursAgo: 20)
    #expect(run([record], [e], [renew, refund]).isEmpty)
  }

  @Test func anExpiryProcessedWhileActiveNeedsTheStoreToAgree() {
    let lapsed = Fx.appleMonthly("A1", until: Fx.t.adding(ms: -Fx.days(20)))
    let e = Fx.ent("e1", user: "u1", key: "A1", expires: nil)
    let expired = note("n1", "EXPIRED", chain: "A1", signedHoursAgo: 24 * 19)
    #expect(run([lapsed], [e], [expired]).map(\.reason) == [.expiryNotApplied])
    // Within Apple's 16-day grace the store still backs access: no finding.
    let recent = Fx.appleMonthly("A1", until: Fx.t.adding(ms: -Fx.days(3)))
    #expect(run([recent], [e], [note("n1", "EXPIRED", chain: "A1", signedHoursAgo: 70)]).isEmpty)
  }

  @Test func aRenewalProcessedWhileNoEntitlementIsActiveIsALockOut() {
    let (record, _) = paid
    let expired = Fx.ent("e1", user: "u1", key: "A1", status: .expired, expires: hours(24))
    let renew = note("n1", "DID_RENEW", chain: "A1", signedHoursAgo: 30)
    let f = run([record], [expired], [renew])
    #expect(f.map(\.reason) == [.renewalNotApplied])
    #expect(f.first?.amountMinor == 499)
    // Unprocessed, the same renewal is only unprocessed (the latest state was never applied).
    let pending = note("n1", "DID_RENEW", chain: "A1", signedHoursAgo: 30, processed: false)
    #expect(run([record], [expired], [pending]).map(\.reason) == [.unprocessed])
    // A neutral notification asks nothing of the row.
    let status = note("n1", "DID_CHANGE_RENEWAL_STATUS", chain: "A1", signedHoursAgo: 30)
    #expect(run([record], [expired], [status]).isEmpty)
  }

  @Test func missingFromTheLogOnceOlderThanTheAge() {
    let (record, e) = paid
    let received = note("n1", "DID_RENEW", chain: "A1", signedHoursAgo: 30)
    var lost = note("n2", "DID_RENEW", chain: "A1", signedHoursAgo: 10)
    lost.receivedAt = nil
    lost.processedAt = nil
    var young = lost
    young.notificationId = "n3"
    young.eventAt = hours(2)
    var sandbox = lost
    sandbox.notificationId = "n4"
    sandbox.production = false
    let f = run([record], [e], [received], history: [received, lost, young, sandbox])
    #expect(f.map(\.reason) == [.neverReceived])
    #expect(f.first?.notificationId == "n2")
    #expect(f.first?.chainKey == "A1")
  }

  @Test func eachNotificationIsItsOwnFinding() {
    let (record, e) = paid
    let a = note("n1", "DID_RENEW", chain: "A1", signedHoursAgo: 30, processed: false)
    let b = note("n2", "DID_RENEW", chain: "A1", signedHoursAgo: 20, processed: false)
    let f = run([record], [e], [a, b])
    #expect(f.count == 2)
    #expect(Set(f.map(\.key)).count == 2)
  }

  @Test func playTypesHaveTheirEffects() {
    #expect(StoreNotification.effect(store: .play, type: "SUBSCRIPTION_REVOKED", subtype: nil) == .revokes)
    #expect(StoreNotification.effect(store: .play, type: "VOIDED_PURCHASE", subtype: nil) == .revokes)
    #expect(StoreNotification.effect(store: .play, type: "SUBSCRIPTION_EXPIRED", subtype: nil) == .expires)
    #expect(StoreNotification.effect(store: .play, type: "SUBSCRIPTION_RENEWED", subtype: nil) == .grants)
    #expect(StoreNotification.effect(store: .play, type: "SUBSCRIPTION_CANCELED", subtype: nil) == .neutral)
    #expect(PlayNotificationType.name(13) == "SUBSCRIPTION_EXPIRED")
    #expect(PlayNotificationType.name(14) == nil)
    #expect(
      StoreNotification.effect(store: .appStore, type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD")
        == .neutral)
  }
}
