package import StoreReconCore

/// The app's own rows, as read for one run.
package struct AppRowSet {
  /// No rows yet.
  package init() {}

  package var entitlements = PackedEntitlements()
  /// The `entitlement_id`s read so far, and the rows that repeated one (docs/contracts.md#one-row-per-id).
  package let entitlementIds = EntitlementIds()
  package var credentials = PackedCredentials()
  package var assignments: [Assignment] = []
  package var goodwill: [GoodwillGrant] = []
  /// The credits contract's rows; `nil` where the run reads none (no credit rules).
  package var credits: [CreditRow]?
  /// The credit rows ``keepCreditsOnce()`` took out.
  package private(set) var creditRepeats: [AppRowRepeats.Repeat] = []
  package var fxRates: [FXRate] = []
  /// The notifications contract's rows, decoded; `nil` where the run reads no notification log.
  package var notifications: [StoreNotification]?
  /// The store's notification history (`appStore.notificationHistory`), where the run reads one.
  package var notificationHistory: [StoreNotification] = []
  /// The store records the notifications carried (Apple transactions, Play voided purchases), for the
  /// ledger: the run moves them into the ledger builder once the log is read.
  package var notificationRecords: [StoreTransaction] = []

  /// A partitioned run's filter: a notification (and the record it carries) of another partition's
  /// chain is dropped as it is read.
  package var keepsNotification: (@Sendable (DecodedNotification) -> Bool)?

  /// Adds a decoded notification and the record it carries.
  package mutating func add(_ decoded: DecodedNotification) {
    if let keeps = keepsNotification, !keeps(decoded) {
      if notifications == nil { notifications = [] }
      return
    }
    if notifications == nil { notifications = [] }
    notifications?.append(decoded.notification)
    if let record = decoded.record { notificationRecords.append(record) }
  }

  /// Keeps one credit row per `credit_id`, the repeats in ``creditRepeats`` (docs/contracts.md#one-row-per-id);
  /// before a partition keeps its lineages, so that every partition drops the same rows as one run.
  package mutating func keepCreditsOnce() {
    guard let rows = credits else { return }
    let once = AppRowRepeats.credits(rows)
    credits = once.rows
    creditRepeats += once.repeats
  }

  /// The rows that repeated a `credit_id` or an `entitlement_id`, entitlements first.
  package var idRepeats: [AppRowRepeats.Repeat] { entitlementIds.repeats + creditRepeats }

  /// How many rows the set holds, all contracts together.
  package var count: Int {
    entitlements.count + credentials.count + assignments.count + goodwill.count + (credits?.count ?? 0)
      + fxRates.count + (notifications?.count ?? 0) + notificationHistory.count
  }
}
