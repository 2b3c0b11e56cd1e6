package import StoreReconCore

extension ReportTables {
  /// `notifications.csv` (with a notification log): one row per finding about a notification, its
  /// notification's type, signed, received and processed instants and age in hours from `fields`
  /// (keyed `store|notification id`; docs/reports.md#notificationscsv).
  package static func notificationsCSV(_ findings: [Finding], fields: [String: [String]]) -> [UInt8] {
    var csv = CSVWriter(header: [
      "finding_key", "kind", "reason", "store", "notification_id", "notification_type", "chain_key",
      "user_id",
      "signed_at", "received_at", "processed_at", "age_hours",
    ])
    for f in findings {
      guard let id = f.notificationId else { continue }
      let n = fields["\(f.store.rawValue)|\(id)"] ?? ["", "", "", "", ""]
      csv.row(
        [f.key, f.kind.rawValue, f.reason.rawValue, f.store.rawValue, id, n[0], f.chainKey, f.userId]
          + n[1...])
    }
    return csv.bytes
  }
}
