import StoreReconCore

/// One App Store Server Notification of the demo world: the app's log (`app/notifications.csv`) holds
/// those it received, the store's history (`exports/apple/notification_history.jsonl`) those Apple
/// sent in the last 30 days (docs/notifications.md).
struct DemoNotification {
  /// The chain (index in its group) and purchase (period index) it carries.
  var chain: Int
  var period: Int
  var type: String
  var subtype: String?
  var uuid: String
  var signedAt: Instant
  var receivedAt: Instant
  /// `nil`: never processed.
  var processedAt: Instant?
  /// The transaction as revoked (a refund's notification) or as it was bought.
  var revoked = false
  /// In the app's log; `false`: a lost webhook, only in the store's history.
  var inLog = true
}

/// How the demo makes the notifications of a group, and which it plants as health problems.
enum DemoNotifications {
  /// The store's history covers this many days before T.
  static let historyDays: Int64 = 30
  /// `notificationAgeHours` of the demo config (the run's default).
  static let ageHours: Int64 = 6

  /// Every notification Apple sent about the group's App Store chains: per purchase one (`SUBSCRIBED`,
  /// `DID_RENEW`, `DID_CHANGE_RENEWAL_PREF/UPGRADE`, `ONE_TIME_CHARGE`), per revocation one (`REFUND`,
  /// `REVOKE`) and a `REFUND_REVERSED` where Apple reversed the refund, each received 2 s and processed 3 s after Apple signed it.
  static func make(_ group: DemoGroup, seed: UInt64, userIndex: Int, t: Instant) -> [DemoNotification] {
    var out: [DemoNotification] = []
    for (c, chain) in group.chains.enumerated() where chain.store == .appStore {
      for (i, p) in chain.periods.enumerated() {
        let type: String
        var subtype: String?
        if !p.product.isSubscription {
          type = "ONE_TIME_CHARGE"
        } else if i == 0 {
          type = "SUBSCRIBED"
          subtype = "INITIAL_BUY"
        } else if chain.periods[i - 1].isUpgraded {
          type = "DID_CHANGE_RENEWAL_PREF"
          subtype = "UPGRADE"
        } else {
          type = "DID_RENEW"
        }
        out.append(
          notification(c, i, type, subtype, at: p.start, seed: seed, userIndex: userIndex, n: out.count))
        if let revocation = p.revocation {
          var refund = notification(
            c, i, revocation.kind == .familyRevoke ? "REVOKE" : "REFUND", nil, at: revocation.at, seed: seed,
            userIndex: userIndex, n: out.count)
          refund.revoked = true
          out.append(refund)
          if let reversed = revocation.reversedAt {
            out.append(
              notification(
                c, i, "REFUND_REVERSED", nil, at: reversed, seed: seed, userIndex: userIndex, n: out.count))
          }
        }
      }
      if let expired = expiry(chain, c, seed: seed, userIndex: userIndex, n: out.count, t: t) {
        out.append(expired)
      }
    }
    return out
  }

  /// `EXPIRED/VOLUNTARY` for a subscription chain whose last purchase ended before T unrevoked.
  static func expiry(_ chain: DemoChain, _ c: Int, seed: UInt64, userIndex: Int, n: Int, t: Instant)
    -> DemoNotification?
  {
    guard let last = chain.periods.last, last.product.isSubscription, !last.isUpgraded,
      last.revocation == nil,
      let end = last.end, end < t
    else { return nil }
    return notification(
      c, chain.periods.count - 1, "EXPIRED", "VOLUNTARY", at: end, seed: seed, userIndex: userIndex, n: n)
  }

  static func notification(
    _ chain: Int, _ period: Int, _ type: String, _ subtype: String?, at: Instant, seed: UInt64,
    userIndex: Int,
    n: Int
  ) -> DemoNotification {
    let signed = at.adding(ms: 1000)
    let uuid = DemoIdentifiers.uuid(
      seed: seed, stream: 0x40F1_0000_0000_0000 | UInt64(userIndex) << 12 | UInt64(n))
    return DemoNotification(
      chain: chain, period: period, type: type, subtype: subtype, uuid: uuid, signedAt: signed,
      receivedAt: signed.adding(ms: 2000), processedAt: signed.adding(ms: 5000))
  }

  /// The index of the group's latest notification of a production chain that an entitlement names,
  /// signed between 30 days and 7 hours before T: where a plant goes. `nil` when the group has none.
  static func plantable(_ list: [DemoNotification], _ group: DemoGroup, t: Instant) -> Int? {
    var latest: [Int: Int] = [:]
    for (k, n) in list.enumerated() where latest[n.chain].map({ list[$0].signedAt < n.signedAt }) ?? true {
      latest[n.chain] = k
    }
    for (c, k) in latest.sorted(by: { $0.key < $1.key }) {
      let chain = group.chains[c]
      let n = list[k]
      guard !chain.sandbox, !chain.familyShared, n.signedAt < t.adding(ms: -7 * 3_600_000),
        n.signedAt > t.adding(ms: -(historyDays - 1) * Instant.msPerDay),
        group.entitlements.contains(where: { $0.source.store == .appStore && $0.storeKey == chain.key })
      else { continue }
      return k
    }
    return nil
  }

  /// A neutral notification (`DID_CHANGE_RENEWAL_STATUS`) signed `hoursBeforeT` before T about the
  /// chain of notification `k`, carrying that chain's latest purchase: the negative controls (too young
  /// to be unprocessed or missing).
  static func young(
    _ list: [DemoNotification], _ k: Int, _ group: DemoGroup, t: Instant, hoursBeforeT: Int64, stream: UInt64
  ) -> DemoNotification {
    let chain = list[k].chain
    var n = list[k]
    n.type = "DID_CHANGE_RENEWAL_STATUS"
    n.subtype = "AUTO_RENEW_DISABLED"
    n.period = group.chains[chain].periods.count - 1
    n.revoked = group.chains[chain].periods[n.period].revocation.map { $0.at <= t } ?? false
    n.uuid = DemoIdentifiers.uuid(seed: 7, stream: 0x40F2_0000_0000_0000 | stream)
    n.signedAt = t.adding(ms: -hoursBeforeT * 3_600_000)
    n.receivedAt = n.signedAt.adding(ms: 2000)
    n.processedAt = nil
    return n
  }
}
