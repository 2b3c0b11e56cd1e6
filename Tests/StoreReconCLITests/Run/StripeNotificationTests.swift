import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconCLI
@testable import StoreReconRun

/// Stripe's webhook events in notification health (docs/rules.md#stripe-webhook-events): the app's log
/// (store `stripe`, the event as payload) checked against the events read from `stripe.objects`, each
/// event keyed by the chain its object belongs to.
@Suite(.serialized) struct StripeNotificationTests {
  /// A Stripe event about `object`, created on 2026-`day`.
  static func event(
    _ id: String, _ type: String, _ day: (Int, Int), _ object: [String: Any], live: Bool = true
  )
    -> [String: Any]
  {
    [
      "id": id, "object": "event", "type": type, "created": StripeWorld.at(day.0, day.1), "livemode": live,
      "api_version": "2025-03-31.basil", "pending_webhooks": 1, "data": ["object": object],
    ]
  }

  /// The world's events and the app's log of them. Each event carries the object as the world
  /// holds it (an event's object is a state of it, read as one).
  static func addNotifications(_ world: StripeWorld) throws {
    let path = world.directory.appendingPathComponent("exports/stripe/objects.jsonl")
    var objects = try String(contentsOf: path, encoding: .utf8)
    var byId: [String: [String: Any]] = [:]
    for line in objects.split(separator: "\n") {
      guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let id = o["id"] as? String
      else { continue }
      byId[id] = o
    }
    let active = StripeWorld.id("sub", "active")
    let invoice = try #require(byId[StripeWorld.id("in", "active1")])
    let refundedCharge = try #require(byId[StripeWorld.id("ch", "refunded0")])
    let subscription = try #require(byId[active])
    let customer = try #require(byId[StripeWorld.id("cus", "active")])
    let events: [(event: [String: Any], received: String?, processed: String?)] = [
      // Stripe sent it, the log never received it: never_received, on the active subscription.
      (event("evt_1NeverReceivedPaid", "invoice.paid", (11, 10), invoice), nil, nil),
      // A type the endpoint does not take (none in the log, asks nothing): not a finding.
      (event("evt_1CustomerUpdated", "customer.updated", (11, 11), customer), nil, nil),
      // Test mode: never a finding.
      (event("evt_1TestModePaid", "invoice.paid", (11, 12), invoice, live: false), nil, nil),
      // Received and processed, yet the entitlement is still active: revocation_not_applied.
      (
        event("evt_1RefundProcessed", "charge.refunded", (11, 14), refundedCharge),
        "2026-11-14T12:00:05Z", "2026-11-14T12:00:09Z"
      ),
      // Received, never processed: unprocessed.
      (
        event("evt_1UpdateUnprocessed", "customer.subscription.updated", (11, 20), subscription),
        "2026-11-20T12:00:01Z", nil
      ),
      // Received and processed: nothing to say.
      (
        event("evt_1PaidProcessed", "invoice.paid", (11, 10), invoice), "2026-11-10T12:00:01Z",
        "2026-11-10T12:00:02Z"
      ),
    ]
    var log = "store,notification_id,received_at,processed_at,payload\n"
    for (e, received, processed) in events {
      let line = StripeWorld.json(e)
      objects += line + "\n"
      if let received {
        let quoted = "\"" + line.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        log += "stripe,\(e["id"] ?? ""),\(received),\(processed ?? ""),\(quoted)\n"
      }
    }
    // A row whose payload is another event than its id says.
    log +=
      "stripe,evt_1Other,2026-11-21T10:00:00Z,,\"{\"\"id\"\":\"\"evt_1Else\"\",\"\"object\"\":\"\"event\"\","
      + "\"\"type\"\":\"\"invoice.paid\"\",\"\"created\"\":1795000000,\"\"data\"\":{\"\"object\"\":{}}}\"\n"
    try world.write("exports/stripe/objects.jsonl", objects)
    try world.write("app/notifications.csv", log)
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var app = root["app"] as? [String: Any] ?? [:]
    app["notifications"] = "app/notifications.csv"
    root["app"] = app
    try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: world.config)
  }

  @Test func theLogIsCheckedAgainstStripesEvents() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Self.addNotifications(world)
    let result = try world.run()
    #expect([0, 1, 3].contains(result.status), "\(result.stderr)")
    let rows = try world.file("findings.csv").split(separator: "\n").map(String.init)
    let notes = rows.filter { $0.split(separator: ",").dropFirst().first?.hasPrefix("notification_") == true }
    let active = StripeWorld.id("sub", "active")
    let refunded = StripeWorld.id("sub", "refunded")
    func one(_ reason: String, _ id: String, _ chain: String) {
      let hits = notes.filter { $0.contains(reason) && $0.contains(id) }
      #expect(hits.count == 1 && hits.allSatisfy { $0.contains(chain) }, "\(reason) \(id): \(notes)")
    }
    one("never_received", "evt_1NeverReceivedPaid", active)
    one("revocation_not_applied", "evt_1RefundProcessed", refunded)
    one("unprocessed", "evt_1UpdateUnprocessed", active)
    for quiet in ["evt_1CustomerUpdated", "evt_1TestModePaid", "evt_1PaidProcessed"] {
      #expect(!notes.contains { $0.contains(quiet) }, "\(quiet): \(notes)")
    }
    #expect(notes.count == 3, "\(notes)")
    #expect(notes.contains { $0.contains("invoice.paid, created 2026-11-10T12:00:00.000Z") })
    let csv = try world.file("notifications.csv")
    #expect(csv.contains("evt_1NeverReceivedPaid,invoice.paid,\(active)"))
    // The row whose payload is another event is rejected, naming both ids.
    let rejects = try String(
      contentsOf: world.out.appendingPathComponent("rejects/app_notifications.csv.csv"), encoding: .utf8)
    #expect(rejects.contains("evt_1Other") && rejects.contains("evt_1Else"), "\(rejects)")
  }

  @Test func partitionsAndWorkersKeepEachEventWithItsChain() throws {
    let world = try StripeWorld(shape: .acacia)
    defer { world.remove() }
    try Self.addNotifications(world)
    let config = world.config.path
    let date = CivilDate(year: 2026, month: 11, day: 29)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, world.out.path), progress: MemoryProgress())
    #expect(try world.file("findings.csv").contains("evt_1RefundProcessed"))
    let dir = try TempDir()
    let keymapPath = try WorkerProtocolTests.keymap(config, date, in: dir)
    let keymap = try ReconciliationRun.readKeymap(keymapPath)
    // The refund event names a payment intent: the keymap puts it with its subscription.
    let intent = LineageNode.chain(.stripe, StripeWorld.id("pi", "refunded0"))
    #expect(
      keymap.keymap.lineage(of: intent)
        == keymap.keymap.lineage(of: LineageNode.chain(.stripe, StripeWorld.id("sub", "refunded"))))
    for n in [2, 3] {
      let parts = try PartitionedRunTests.partitions(config, date, keymap: keymap, count: n, in: dir)
      _ = try ReconciliationRun.execute(
        PartitionedRunTests.request(
          config, date, dir.path("n\(n)/merged"), .merge(try ReconciliationRun.readPartials(parts))),
        progress: MemoryProgress())
      try StripePartitionTests.expectSame(world.out.path, dir.path("n\(n)/merged"), "events, N=\(n)")
      let stdins = try WorkerProtocolTests.routed(config, date, keymap: keymapPath, count: n, minimumKeyed: 4)
      try WorkerProtocolTests.workAndMerge(
        config, date, keymap: keymapPath, stdins: stdins, in: dir, label: "w\(n)", minimumKeyed: 4)
      try StripePartitionTests.expectSame(world.out.path, dir.path("w\(n)/merged"), "events worker, N=\(n)")
    }
  }
}
