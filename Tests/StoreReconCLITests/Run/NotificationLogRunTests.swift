import Foundation
import Testing
import StoreReconTestSupport

/// Issue 12's notification log as a user runs it: the demo world's log raises every planted
/// notification-health finding, a run from the log alone (no App Store export) reconciles exactly as
/// the export run does, and a bad row of the log is rejected with its reason (docs/notifications.md).
@Suite struct NotificationLogRunTests {
  static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  @Test func theLogAloneReconcilesAsTheExportsDo() throws {
    let world = try RunWorld(users: 1500, coverDay: false)
    defer { world.remove() }
    let first = try world.run([])
    #expect(first.status == 0, "\(first.stderr)")
    let findings = try world.file("findings.csv")
    let revenue = try world.file("revenue.csv")
    let counts = try world.file("counts.csv")
    for reason in ["unprocessed", "revocation_not_applied", "expiry_not_applied", "renewal_not_applied"] {
      #expect(findings.contains(",\(reason),"), "\(reason)")
    }
    #expect(findings.contains("notification_missing,never_received,"))
    // notifications.csv: one row per notification finding, each with its id, type and age.
    let health = Self.lines(findings).filter { $0.contains(",notification_") }
    let listed = Self.lines(try world.file("notifications.csv"))
    #expect(
      listed.first?.hasPrefix("finding_key,kind,reason,store,notification_id,notification_type") == true)
    #expect(listed.count - 1 == health.count)
    #expect(listed.dropFirst().allSatisfy { !$0.hasSuffix(",") })  // every row has its age
    // The log repeats the export's transactions: none of that is listed as read twice. Only a later state
    // the log alone holds (a REFUND's revoked copy the export does not have yet) supersedes the export's.
    let repeats = Self.lines(try world.file("duplicates.csv")).filter { $0.contains("app/notifications.csv") }
    #expect(repeats.allSatisfy { $0.hasPrefix("superseded,") }, "\(repeats)")

    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var appStore = root["appStore"] as? [String: Any] ?? [:]
    appStore.removeValue(forKey: "transactions")
    root["appStore"] = appStore
    try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: world.config)
    let second = try world.run([])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try world.file("findings.csv") == findings)
    #expect(try world.file("revenue.csv") == revenue)
    #expect(try world.file("counts.csv") == counts)
  }

  @Test func aBadRowOfTheLogIsRejectedWithItsReason() throws {
    let world = try RunWorld(users: 600, coverDay: false)
    defer { world.remove() }
    let log = world.directory.appendingPathComponent("app/notifications.csv")
    var text = try String(contentsOf: log, encoding: .utf8)
    let row = try #require(Self.lines(text).dropFirst().first)
    let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let payload = cells[4]
    let parts = payload.split(separator: ".").map(String.init)
    let tampered = parts[0] + "." + parts[1].dropLast(4) + "AAAA." + parts[2]
    text += "app_store,\(cells[1])-x,2026-11-20T10:00:00Z,,\(tampered)\n"
    text += "app_store,\(cells[1])-y,2026-11-20T10:00:00,,\(payload)\n"
    text += "play,m-1,2026-11-20T10:00:00Z,2026-11-20T09:00:00Z,e30=\n"
    try Data(text.utf8).write(to: log)
    let out = try world.run([])
    #expect(out.status == 0, "\(out.stderr)")
    let rejects = try world.file("rejects/app_notifications.csv.csv")
    #expect(rejects.contains("signedPayload is not a valid JWS: signature"), "\(rejects)")
    #expect(rejects.contains("received_at"))
    #expect(rejects.contains("processed_at 2026-11-20T09:00:00.000Z is before received_at"))
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    let input = (manifest?["inputs"] as? [[String: Any]] ?? []).first {
      $0["role"] as? String == "app.notifications"
    }
    #expect(input?["rejected"] as? Int == 3)
    #expect(input?["read"] as? Int == (input?["accepted"] as? Int ?? 0) + 3)
  }

  @Test func aRedeliveredNotificationIsOneNotificationAndAConflictIsRejected() throws {
    let world = try RunWorld(users: 600, coverDay: false)
    defer { world.remove() }
    let before = try world.run([])
    #expect(before.status == 0, "\(before.stderr)")
    let findings = try world.file("findings.csv")
    let log = world.directory.appendingPathComponent("app/notifications.csv")
    var text = try String(contentsOf: log, encoding: .utf8)
    // Every notification-health finding's row delivered again (as a store redelivers an unacknowledged
    // webhook), and one row whose id comes back with another payload.
    let unprocessed = Self.lines(text).dropFirst().filter { row in
      let cells = row.split(separator: ",", omittingEmptySubsequences: false)
      return cells.count == 5 && cells[3].isEmpty && cells[0] == "app_store"
    }
    let redelivered = try #require(unprocessed.first)
    text += redelivered + "\n"
    let cells = redelivered.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let other = try #require(
      Self.lines(text).dropFirst().first { $0.hasPrefix("app_store,") && !$0.contains(cells[1]) })
    let otherPayload = other.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[4]
    text += "app_store,\(cells[1]),\(cells[2]),,\(otherPayload)\n"
    try Data(text.utf8).write(to: log)
    let after = try world.run([])
    #expect(after.status == 0, "\(after.stderr)")
    // The same findings, each once: the redelivery adds nothing, the conflicting row is rejected.
    #expect(try world.file("findings.csv") == findings)
    let keys = Self.lines(try world.file("findings.csv")).dropFirst().map { $0.prefix(16) }
    #expect(Set(keys).count == keys.count)
    let rejects = try world.file("rejects/app_notifications.csv.csv")
    // (An App Store row's id is its signed payload's: another payload under the id is refused as such.)
    #expect(rejects.contains("is not the payload's"), "\(rejects)")
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    let input = (manifest?["inputs"] as? [[String: Any]] ?? []).first {
      $0["role"] as? String == "app.notifications"
    }
    let read = input?["read"] as? Int ?? 0
    let accepted = input?["accepted"] as? Int ?? 0
    let rejected = input?["rejected"] as? Int ?? 0
    let duplicates = input?["duplicates"] as? Int ?? 0
    #expect(rejected == 1 && duplicates == 1, "\(input ?? [:])")
    #expect(read == accepted + rejected + duplicates)
  }
}
