import StoreReconCore

/// docs/rules.md#notification-health applied to one group's notifications, from the demo's own
/// structures (not the job's code).
extension DemoRuleCheck {
  /// The notification-health findings of `group`.
  func notificationFindings(_ group: DemoGroup) -> [PlantedFinding] {
    let age = DemoNotifications.ageHours * 3_600_000
    let chains = group.chains
    func named(_ c: Int) -> [DemoEntitlement] {
      group.entitlements.filter { e in
        e.source.store == chains[c].store && (e.storeKey.map { chains[c].isNamed(by: $0) } ?? false)
      }
    }
    func finding(_ reason: String, _ kind: String, _ c: Int, _ user: String) -> PlantedFinding {
      PlantedFinding(kind: kind, reason: reason, store: .appStore, chainKey: chains[c].key, userId: user)
    }
    var result: [PlantedFinding] = []
    let received = group.notifications.filter { $0.inLog && $0.receivedAt <= t && !chains[$0.chain].sandbox }
    for n in received where (n.processedAt.map { $0 > t } ?? true) && t.ms - n.receivedAt.ms > age {
      let users = Set(named(n.chain).map(\.userId)).sorted()
      for user in users.isEmpty ? [""] : users {
        result.append(finding("unprocessed", "notification_unprocessed", n.chain, user))
      }
    }
    var latest: [Int: DemoNotification] = [:]
    for n in received {
      if let other = latest[n.chain],
        (other.signedAt, other.receivedAt, other.uuid) > (n.signedAt, n.receivedAt, n.uuid)
      {
        continue
      }
      latest[n.chain] = n
    }
    for (c, n) in latest.sorted(by: { $0.key < $1.key }) {
      guard let processed = n.processedAt, processed <= t else { continue }
      let rows = named(c)
      guard !rows.isEmpty else { continue }
      let chain = chains[c]
      let paidThrough = chain.paidThrough(at: t)
      let ended = chain.isRefunded(at: t) || (paidThrough.map { $0.adding(ms: grace(.appStore)) < t } ?? true)
      let paid = !chain.isRefunded(at: t) && (paidThrough.map { $0 > t.adding(ms: tolerance) } ?? false)
      switch n.type {
      case "REFUND", "REVOKE", "EXPIRED":
        guard ended else { continue }
        let reason = n.type == "EXPIRED" ? "expiry_not_applied" : "revocation_not_applied"
        for user in Set(rows.filter { $0.isActive(at: t) }.map(\.userId)).sorted() {
          result.append(finding(reason, "notification_not_applied", c, user))
        }
      case "SUBSCRIBED", "DID_RENEW", "ONE_TIME_CHARGE":
        guard paid, !rows.contains(where: { $0.isActive(at: t) }) else { continue }
        for user in Set(rows.map(\.userId)).sorted() {
          result.append(finding("renewal_not_applied", "notification_not_applied", c, user))
        }
      default:
        continue
      }
    }
    for n in group.notifications where !n.inLog && !chains[n.chain].sandbox {
      guard n.signedAt <= t, t.ms - n.signedAt.ms > age else { continue }
      result.append(finding("never_received", "notification_missing", n.chain, ""))
    }
    return result
  }
}
