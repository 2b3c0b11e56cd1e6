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

  /// A run in passes (docs/partitions.md#runs-in-passes): the rows of users of other lineages are left
  /// out as they are read (entitlements, credentials, goodwill, credits), so a pass never holds them.
  /// The ids they carry are still recorded, so that each id names one row as in a one-pass run.
  package var keepsUser: (@Sendable (String) -> Bool)?
  /// False where ``keepsUser`` leaves entitlements and credits whole (a run in passes' merge, which
  /// keeps no lineage but names every repeated id's rows in its rejects files, as a one-pass run does).
  package var keepsUserOfIdRows = true
  /// The first origin of each `credit_id` of the credit rows ``keepsUser`` left out.
  package private(set) var droppedCredits: [String: Origin] = [:]

  /// ``keepsUser`` for the contracts whose rows carry an id (entitlements, credits).
  package var idRowsKeepUser: (@Sendable (String) -> Bool)? { keepsUserOfIdRows ? keepsUser : nil }

  /// Adds an entitlement read from a contract query (one row per `entitlement_id`).
  package mutating func add(entitlement e: Entitlement) {
    if let keeps = idRowsKeepUser, !keeps(e.userId) {
      entitlements.recordDropped(e, ids: entitlementIds)
    } else {
      entitlements.append(e, ids: entitlementIds)
    }
  }

  /// Adds a credential unless ``keepsUser`` refuses its user.
  package mutating func add(credential c: Credential) {
    if let keeps = keepsUser, !keeps(c.userId) { return }
    credentials.append(c)
  }

  /// Adds a goodwill grant unless ``keepsUser`` refuses its user.
  package mutating func add(goodwill g: GoodwillGrant) {
    if let keeps = keepsUser, !keeps(g.userId) { return }
    goodwill.append(g)
  }

  /// Adds a credit row to `credits` unless ``keepsUser`` refuses its user; then only the first origin
  /// of its `credit_id` is recorded (``keepCreditsOnce()``).
  package mutating func add(credit c: CreditRow, to credits: inout [CreditRow]) {
    guard let keeps = idRowsKeepUser, !keeps(c.userId) else {
      credits.append(c)
      return
    }
    if let seen = droppedCredits[c.creditId], (seen.file, seen.line) < (c.origin.file, c.origin.line) {
      return
    }
    droppedCredits[c.creditId] = c.origin
  }

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
    guard !droppedCredits.isEmpty else { return }
    // A row whose id an earlier row of another lineage (so of another user) holds is a repeat too.
    credits = once.rows.filter { row in
      guard let seen = droppedCredits[row.creditId],
        (seen.file, seen.line) < (row.origin.file, row.origin.line)
      else { return true }
      creditRepeats.append(
        AppRowRepeats.Repeat(
          column: "credit_id", id: row.creditId, dropped: row.origin, kept: seen, conflict: "user_id"))
      return false
    }
    droppedCredits = [:]
  }

  /// The rows that repeated a `credit_id` or an `entitlement_id`, entitlements first.
  package var idRepeats: [AppRowRepeats.Repeat] { entitlementIds.repeats + creditRepeats }

  /// How many rows the set holds, all contracts together.
  package var count: Int {
    entitlements.count + credentials.count + assignments.count + goodwill.count + (credits?.count ?? 0)
      + fxRates.count + (notifications?.count ?? 0) + notificationHistory.count
  }
}
