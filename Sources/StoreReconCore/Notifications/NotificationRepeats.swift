/// The app's notification log with each notification once: stores redeliver a webhook until the app
/// acknowledges it, so one `notification_id` in several rows is normal traffic (docs/notifications.md).
package enum NotificationRepeats {
  /// A row that repeats an earlier row's notification.
  package struct Repeat: Sendable, Equatable {
    /// The row taken out (the later one in input and line order).
    package var dropped: Origin
    /// The row kept.
    package var kept: Origin
    /// `nil` for a redelivery (the same notification: counted as a duplicate); else why the two rows
    /// disagree (the later row is rejected with it).
    package var conflict: String?
  }

  /// `rows` with each (store, notification id) once, and the rows taken out. The first row (by input
  /// and line) is kept; a later row with the same content is a redelivery: the kept row takes the
  /// earliest `received_at` and the earliest `processed_at` of the two (processed by one delivery is
  /// processed). A later row whose content differs is a conflict and is dropped.
  package static func deduplicated(_ rows: [StoreNotification]) -> (
    rows: [StoreNotification], repeats: [Repeat]
  ) {
    var first: [String: Int] = [:]
    var out: [StoreNotification] = []
    var repeats: [Repeat] = []
    let order = rows.indices.sorted {
      (rows[$0].origin.file, rows[$0].origin.line) < (rows[$1].origin.file, rows[$1].origin.line)
    }
    for i in order {
      let n = rows[i]
      let id = "\(n.store.rawValue)|\(n.notificationId)"
      guard let k = first[id] else {
        first[id] = out.count
        out.append(n)
        continue
      }
      var kept = out[k]
      if let why = difference(kept, n) {
        repeats.append(Repeat(dropped: n.origin, kept: kept.origin, conflict: why))
        continue
      }
      kept.receivedAt = earliest(kept.receivedAt, n.receivedAt)
      kept.processedAt = earliest(kept.processedAt, n.processedAt)
      out[k] = kept
      repeats.append(Repeat(dropped: n.origin, kept: kept.origin, conflict: nil))
    }
    // Without a repeat the rows stay as they were given; else the kept rows in input and line order.
    guard !repeats.isEmpty else { return (rows, []) }
    return (out, repeats)
  }

  static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
    guard let a else { return b }
    guard let b else { return a }
    return b < a ? b : a
  }

  /// What differs between two rows of one notification id (payload fields only; delivery times may
  /// differ), or `nil` where they are the same notification.
  static func difference(_ a: StoreNotification, _ b: StoreNotification) -> String? {
    if a.typeName != b.typeName { return "type \(b.typeName) vs \(a.typeName)" }
    if a.chainKey != b.chainKey { return "purchase \(b.chainKey ?? "none") vs \(a.chainKey ?? "none")" }
    if a.eventAt != b.eventAt {
      return "signed \(b.eventAt?.description ?? "?") vs \(a.eventAt?.description ?? "?")"
    }
    if a.productId != b.productId || a.expiresAt != b.expiresAt || a.amountMinor != b.amountMinor
      || a.currency != b.currency || a.production != b.production
    {
      return "other payload"
    }
    return nil
  }
}
