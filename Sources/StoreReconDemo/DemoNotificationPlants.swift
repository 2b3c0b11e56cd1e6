import StoreReconCore

/// The notification-health problems the demo plants on clean users, `count` of each kind, one user
/// in 7 a candidate: an old notification never processed, a lost webhook (in the store's history,
/// not in the log); and one young notification of each sort that must not be a finding.
struct DemoNotificationPlants {
  let count: Int
  var unprocessed = 0
  var missing = 0
  var youngUnprocessed = false
  var youngMissing = false

  init(count: Int) { self.count = count }

  /// Plants on clean group `group` (user `userIndex`) what is still to plant.
  mutating func plant(_ group: inout DemoGroup, t: Instant, userIndex: Int) {
    guard userIndex % 7 == 3, let k = DemoNotifications.plantable(group.notifications, group, t: t) else {
      return
    }
    let chain = group.chains[group.notifications[k].chain]
    let users = Set(
      group.entitlements.filter { $0.source.store == .appStore && $0.storeKey == chain.key }.map(\.userId)
    ).sorted()
    let stream = UInt64(userIndex)
    if unprocessed < count {
      unprocessed += 1
      group.notifications[k].processedAt = nil
      for user in users {
        group.planted.append(
          PlantedFinding(
            kind: "notification_unprocessed", reason: "unprocessed", store: .appStore, chainKey: chain.key,
            userId: user))
      }
    } else if missing < count {
      missing += 1
      group.notifications[k].inLog = false
      group.planted.append(
        PlantedFinding(
          kind: "notification_missing", reason: "never_received", store: .appStore, chainKey: chain.key,
          userId: ""))
    } else if !youngUnprocessed {
      youngUnprocessed = true
      group.notifications.append(
        DemoNotifications.young(group.notifications, k, group, t: t, hoursBeforeT: 1, stream: stream))
    } else if !youngMissing {
      youngMissing = true
      var n = DemoNotifications.young(group.notifications, k, group, t: t, hoursBeforeT: 2, stream: stream)
      n.inLog = false
      group.notifications.append(n)
    }
  }
}
