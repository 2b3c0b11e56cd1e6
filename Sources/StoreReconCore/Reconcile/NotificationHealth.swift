import StoreReconPlatform

/// The notification-health findings of docs/rules.md#notification-health: notifications the app
/// received and never processed, notifications it processed whose effect the entitlement row does not
/// show, and notifications the store sent that the app's log never received.
package enum NotificationHealth {
  /// What the rules need of the entitlements: per row its chain (-1: none) and whether it is active at T.
  struct EntitlementView {
    let table: PackedEntitlements
    let chains: [Int32]
    let active: [Bool]
  }

  /// Every notification-health finding (unordered; the caller sorts).
  static func findings(
    _ log: NotificationLog, storage s: LedgerStorage, entitlements: EntitlementView, asOf: Int64,
    toleranceMs: Int64, graceMs: (Store) -> Int64
  ) -> [Finding] {
    let received = log.received.filter { n in (n.receivedAt?.ms ?? Int64.max) <= asOf && n.production }
    // Per chain, the rows of the entitlements naming it.
    var chainOf: [String: Int] = [:]
    var wanted = Set<Int32>()
    for n in received {
      guard let key = n.chainKey, chainOf["\(n.store.rawValue)|\(key)"] == nil,
        let c = s.chainIndex(store: n.store, key: key)
      else { continue }
      chainOf["\(n.store.rawValue)|\(key)"] = c
      wanted.insert(Int32(c))
    }
    var rowsOf: [Int32: [Int]] = [:]
    if !wanted.isEmpty {
      for (i, c) in entitlements.chains.enumerated() where c >= 0 && wanted.contains(c) {
        rowsOf[c, default: []].append(i)
      }
    }
    func rows(_ n: StoreNotification) -> (chain: Int?, rows: [Int]) {
      guard let key = n.chainKey, let c = chainOf["\(n.store.rawValue)|\(key)"] else { return (nil, []) }
      return (c, rowsOf[Int32(c)] ?? [])
    }
    var out: [Finding] = []
    for n in received where isUnprocessed(n, asOf: asOf, ageMs: log.ageMs) {
      let (c, named) = rows(n)
      let users = Set(named.map { entitlements.table.rows[$0].userId }).sorted()
      for user in users.isEmpty ? [""] : users {
        out.append(
          finding(.unprocessed, n, chain: c, user: user, storage: s, asOf: asOf, what: unprocessedText))
      }
    }
    for n in latestProcessed(received, asOf: asOf) {
      let (c, named) = rows(n)
      guard let c, !named.isEmpty else { continue }
      out += notApplied(
        n, chain: c, rows: named, entitlements: entitlements, storage: s, asOf: asOf,
        limits: (graceMs(n.store), toleranceMs))
    }
    out += missing(log, asOf: asOf, storage: s)
    return out
  }

  static let unprocessedText = "received and never processed"

  /// Received by T, not processed by T, and received longer ago than the age allowed.
  static func isUnprocessed(_ n: StoreNotification, asOf: Int64, ageMs: Int64) -> Bool {
    guard let received = n.receivedAt?.ms else { return false }
    if let processed = n.processedAt?.ms, processed <= asOf { return false }
    return asOf - received > ageMs
  }

  /// Per purchase, its latest notification by the store's own time (notifications arrive out of order),
  /// when that one was processed by T: the state the entitlement row must show now.
  static func latestProcessed(_ received: [StoreNotification], asOf: Int64) -> [StoreNotification] {
    var latest: [String: StoreNotification] = [:]
    for n in received {
      guard let key = n.chainKey else { continue }
      let slot = "\(n.store.rawValue)|\(key)"
      if let other = latest[slot], !later(n, than: other) { continue }
      latest[slot] = n
    }
    return latest.values.filter { n in
      guard let processed = n.processedAt?.ms else { return false }
      return processed <= asOf
    }.sorted {
      ($0.store, $0.chainKey ?? "", $0.notificationId) < ($1.store, $1.chainKey ?? "", $1.notificationId)
    }
  }

  /// Whether `a` is later than `b`: by the store's time, then the time received, then the id.
  static func later(_ a: StoreNotification, than b: StoreNotification) -> Bool {
    let x = (a.eventAt?.ms ?? a.receivedAt?.ms ?? 0, a.receivedAt?.ms ?? 0, a.notificationId)
    let y = (b.eventAt?.ms ?? b.receivedAt?.ms ?? 0, b.receivedAt?.ms ?? 0, b.notificationId)
    return x > y
  }

  /// Whether the store's data says access to chain `c` has ended at T: revoked, replaced, or not paid
  /// through T even with the store's grace (as `refunded`, `superseded` and `store_expired` judge it).
  static func chainEnded(_ c: Int, storage s: LedgerStorage, asOf: Int64, graceMs: Int64) -> Bool {
    let chain = s.chains[c]
    guard !chain.revoked, chain.supersededBy < 0, chain.paidThrough != PackedRecord.none else { return true }
    return chain.paidThrough &+ graceMs < asOf
  }

  /// Whether the store's data says chain `c` is paid beyond T (by more than the tolerance, as
  /// `locked_out` judges it): production, not pending, revoked or replaced.
  static func chainPaid(_ c: Int, storage s: LedgerStorage, asOf: Int64, toleranceMs: Int64) -> Bool {
    let chain = s.chains[c]
    guard chain.production, !chain.pending, !chain.revoked, chain.supersededBy < 0,
      chain.paidThrough != PackedRecord.none
    else { return false }
    return chain.paidThrough > asOf &+ toleranceMs
  }

  /// The not-applied findings of notification `n`, the latest of chain `c`, processed by T.
  static func notApplied(
    _ n: StoreNotification, chain c: Int, rows: [Int], entitlements: EntitlementView,
    storage s: LedgerStorage,
    asOf: Int64, limits: (graceMs: Int64, toleranceMs: Int64)
  ) -> [Finding] {
    let reason: Finding.Reason
    let what: String
    var users: [String]
    switch n.effect {
    case .revokes, .expires:
      // The store's data must agree that access has ended; an active row is then what was not applied.
      guard chainEnded(c, storage: s, asOf: asOf, graceMs: limits.graceMs) else { return [] }
      users = rows.filter { entitlements.active[$0] }.map { entitlements.table.rows[$0].userId }
      reason = n.effect == .revokes ? .revocationNotApplied : .expiryNotApplied
      what = "processed, but the entitlement is still active"
    case .grants:
      // A renewal processed while every row naming the purchase is inactive: a lock-out.
      guard chainPaid(c, storage: s, asOf: asOf, toleranceMs: limits.toleranceMs),
        !rows.contains(where: { entitlements.active[$0] })
      else { return [] }
      users = rows.map { entitlements.table.rows[$0].userId }
      reason = .renewalNotApplied
      what = "processed, but no entitlement naming it is active"
    case .neutral:
      return []
    }
    users = Set(users).sorted()
    return users.map { finding(reason, n, chain: c, user: $0, storage: s, asOf: asOf, what: what) }
  }

  /// The store's history entries the app's log never received, sent longer ago than the age allowed.
  static func missing(_ log: NotificationLog, asOf: Int64, storage s: LedgerStorage) -> [Finding] {
    guard !log.history.isEmpty else { return [] }
    var known = Set<String>()
    var stripeTypes = Set<String>()
    for n in log.received {
      known.insert("\(n.store.rawValue)|\(n.notificationId)")
      if n.store == .stripe { stripeTypes.insert(n.type) }
    }
    var seen = Set<String>()
    var out: [Finding] = []
    for n in log.history where n.production && sentToTheApp(n, stripeTypes: stripeTypes) {
      let id = "\(n.store.rawValue)|\(n.notificationId)"
      guard !known.contains(id), seen.insert(id).inserted, let sent = n.eventAt?.ms, sent <= asOf,
        asOf - sent > log.ageMs
      else { continue }
      let c = n.chainKey.flatMap { s.chainIndex(store: n.store, key: $0) }
      out.append(
        finding(.neverReceived, n, chain: c, user: "", storage: s, asOf: asOf, what: "never received"))
    }
    return out
  }

  /// Whether the store sent `n` to the app: every App Store history entry; a Stripe event only when its
  /// type asks something of the entitlement or the app's log holds an event of its type (a webhook
  /// endpoint receives only the types it enabled: docs/rules.md#stripe-webhook-events).
  static func sentToTheApp(_ n: StoreNotification, stripeTypes: Set<String>) -> Bool {
    n.store != .stripe || n.effect != .neutral || stripeTypes.contains(n.type)
  }

  /// A finding about notification `n`: its key includes the notification id, so every notification is
  /// its own finding across runs.
  static func finding(
    _ reason: Finding.Reason, _ n: StoreNotification, chain c: Int?, user: String, storage s: LedgerStorage,
    asOf: Int64, what: String
  ) -> Finding {
    let chainKey = c.map { s.chains[$0].key.string(pool: s.pool) } ?? n.chainKey ?? ""
    var currency = n.currency
    var amount = n.amountMinor
    if amount == nil, let c, let charge = Reconciler.quotedCharge(c, s) {
      currency = charge.currencyValue
      amount = charge.amount
    }
    let product =
      n.productId ?? c.flatMap { s.chains[$0].currentProduct == UInt32.max ? nil : s.chains[$0] }
      .map { s.products.names[Int($0.currentProduct)] } ?? ""
    var f = Finding(
      reason: reason, store: n.store, chainKey: chainKey, userId: user, productId: product,
      currency: currency,
      amountMinor: amount, detail: detail(n, asOf: asOf, what: what))
    f.key = Finding.key(
      kind: reason.kind, store: n.store, chainKey: "\(chainKey)#\(n.notificationId)", userId: user)
    f.notificationId = n.notificationId
    return f
  }

  /// `notification <id> (<TYPE/SUBTYPE>, signed …, received …, processed …, <age> old): <what>`.
  static func detail(_ n: StoreNotification, asOf: Int64, what: String) -> String {
    var parts = [n.typeName]
    if let at = n.eventAt { parts.append("\(n.store == .stripe ? "created" : "signed") \(at)") }
    if let at = n.receivedAt { parts.append("received \(at)") }
    if n.receivedAt != nil { parts.append("processed " + (n.processedAt.map(\.description) ?? "never")) }
    if let from = n.receivedAt ?? n.eventAt { parts.append("\(age(asOf - from.ms)) old") }
    return "notification \(n.notificationId) (\(parts.joined(separator: ", "))): \(what)"
  }

  /// An age as `N h` under two days, else `N d M h`.
  static func age(_ ms: Int64) -> String {
    let hours = max(ms, 0) / 3_600_000
    return hours < 48 ? "\(hours) h" : "\(hours / 24) d \(hours % 24) h"
  }

  /// Whole hours from `from` to T.
  package static func ageHours(_ n: StoreNotification, asOf: Instant) -> Int64? {
    guard let from = n.receivedAt ?? n.eventAt else { return nil }
    return max(asOf.ms - from.ms, 0) / 3_600_000
  }
}
