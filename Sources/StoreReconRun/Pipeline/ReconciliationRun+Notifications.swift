package import StoreReconCore
package import StoreReconAppRows
import StoreReconReports

extension ReconciliationRun {
  /// `notifications.csv` (with a notification log): one row per notification-health finding, with the
  /// notification's id, type, the store's time, when it was received and processed, and its age in hours
  /// at T (docs/reports.md#notificationscsv).
  package static func notificationsCSV(_ findings: [Finding], rows: AppRowSet, asOf: Instant) -> [UInt8] {
    ReportTables.notificationsCSV(findings, fields: notificationFields(findings, rows: rows, asOf: asOf))
  }

  /// Per finding about a notification (`store|notification id`): the notification's type, signed,
  /// received and processed instants and age in hours, as notifications.csv writes them.
  package static func notificationFields(_ findings: [Finding], rows: AppRowSet, asOf: Instant) -> [String:
    [String]]
  {
    var byId: [String: StoreNotification] = [:]
    for n in rows.notificationHistory { byId["\(n.store.rawValue)|\(n.notificationId)"] = n }
    for n in rows.notifications ?? [] { byId["\(n.store.rawValue)|\(n.notificationId)"] = n }
    var fields: [String: [String]] = [:]
    for f in findings {
      guard let id = f.notificationId else { continue }
      let key = "\(f.store.rawValue)|\(id)"
      let n = byId[key]
      fields[key] = [
        n?.typeName ?? "", n?.eventAt?.description ?? "", n?.receivedAt?.description ?? "",
        n?.processedAt?.description ?? "",
        n.flatMap { NotificationHealth.ageHours($0, asOf: asOf) }.map(String.init) ?? "",
      ]
    }
    return fields
  }

  /// The progress line on the notification log: how many notifications, how many carried a store
  /// record, and the health findings.
  package static func notificationsLine(_ rows: AppRowSet, findings: [Finding]) -> String? {
    guard let log = rows.notifications else { return nil }
    var n: [Finding.Kind: Int] = [:]
    for f in findings where f.notificationId != nil { n[f.kind, default: 0] += 1 }
    let history =
      rows.notificationHistory.isEmpty ? "" : ", \(rows.notificationHistory.count) in the store's history"
    return
      "notifications: \(log.count) in the log\(history); \(n[.notificationUnprocessed] ?? 0) unprocessed, "
      + "\(n[.notificationNotApplied] ?? 0) not applied, \(n[.notificationMissing] ?? 0) missing"
  }
}
