import Foundation
import StoreReconTestSupport
import Testing

/// `fetch stripe` keeps the events it lists in `stripe/events/`, and a run reading them under
/// `stripe.events` gives the notification-health findings of a run on the files they came from (the
/// objects and the team's own export of the same events): docs/fetch.md#stripe.
@Suite(.serialized, .enabled(if: StripeFetchWorld.available, StripeFetchWorld.unavailable))
struct StripeFetchEventsTests {
  /// The world's objects in live mode (test-mode events raise nothing).
  static func liveObjects(_ world: StripeFetchWorld) -> [[String: Any]] {
    world.objects().map { object in
      var o = object
      if o["livemode"] != nil { o["livemode"] = true }
      if var price = o["items"] as? [String: Any], var data = price["data"] as? [[String: Any]] {
        for i in data.indices {
          if var p = data[i]["price"] as? [String: Any] {
            p["livemode"] = true
            data[i]["price"] = p
          }
        }
        price["data"] = data
        o["items"] = price
      }
      return o
    }
  }

  /// A live event about `object`, created `created`.
  static func event(_ id: String, _ type: String, created: Int64, _ object: [String: Any]) -> [String: Any] {
    [
      "id": id, "object": "event", "api_version": "2025-03-31.basil", "created": created, "type": type,
      "data": ["object": object], "livemode": true, "pending_webhooks": 0,
    ]
  }

  static func json(_ object: Any) throws -> String {
    String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }

  static func utc(_ seconds: Int64) -> String {
    StripeFetchWorld.utc(seconds).replacingOccurrences(of: " ", with: "T") + "Z"
  }

  /// The app's rows: sub_A's entitlement and credential, and the log holding three of the four events
  /// (the second never received, the fourth never processed).
  static func writeAppRows(_ world: StripeFetchWorld, _ events: [[String: Any]]) throws {
    let app = world.directory.appendingPathComponent("app")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    let start = Self.utc(world.days(10))
    try Data(
      ("entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
        + "e-A,u-sub_A,pro_monthly,stripe,sub_A,active,\(start),\(Self.utc(world.days(-20))),\n").utf8
    ).write(to: app.appendingPathComponent("entitlements.csv"))
    try Data(
      ("store,store_key,user_id,linked_store_key,order_id,claimed_at\nstripe,sub_A,u-sub_A,,,\(start)\n").utf8
    ).write(to: app.appendingPathComponent("credentials.csv"))
    var log = "store,notification_id,received_at,processed_at,payload\n"
    for (event, processed) in [(events[0], true), (events[2], true), (events[3], false)] {
      let line = try Self.json(event)
      let at = Self.utc((event["created"] as? Int64 ?? 0) + 2)
      log +=
        "stripe,\(event["id"] ?? ""),\(at),\(processed ? at : ""),\"\(line.replacingOccurrences(of: "\"", with: "\"\""))\"\n"
    }
    try Data(log.utf8).write(to: app.appendingPathComponent("notifications.csv"))
  }

  @Test func aFetchedWorldGivesTheNotificationHealthOfItsFiles() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    try world.write("objects.json", Self.liveObjects(world))
    try world.write("events.json", [[String: Any]]())
    // The objects as Stripe serves them (expanded), for the events to carry.
    _ = try world.fetch(stripe: ["reports": false])
    let objects = world.objectsById()
    let served = world.lines().map { $0 + "\n" }.joined()
    let (subA, inA, chA) = (
      try #require(objects["sub_A"]), try #require(objects["in_A"]), try #require(objects["ch_A"])
    )
    let events = [
      // Received and processed: nothing to say.
      Self.event("evt_1Created", "customer.subscription.created", created: world.days(10), subA),
      // Stripe sent it, the app's log never received it: never_received.
      Self.event("evt_2Paid", "invoice.paid", created: world.days(10) + 60, inA),
      // A partial refund, received and processed: nothing.
      Self.event("evt_3Refunded", "charge.refunded", created: world.days(3), chA),
      // Received, never processed: unprocessed.
      Self.event("evt_4Updated", "customer.subscription.updated", created: world.days(2), subA),
    ]
    try world.write("events.json", events)
    // A first fetch again, now with the events (they are all within Stripe's 30 days).
    try FileManager.default.removeItem(at: world.into)
    _ = try world.fetch(stripe: ["reports": false])
    let kept = world.lines("stripe/events")
    #expect(kept.count == 4 && kept.allSatisfy { $0.hasPrefix("{\"id\":\"evt_") }, "\(kept)")

    // The files they came from: the objects, and the team's own export of the same events (a webhook
    // log is a stripe.objects input).
    let source = world.directory.appendingPathComponent("source")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    try Data(served.utf8).write(to: source.appendingPathComponent("objects.jsonl"))
    try Data((try events.map(Self.json).joined(separator: "\n") + "\n").utf8).write(
      to: source.appendingPathComponent("webhooks.jsonl"))
    try Self.writeAppRows(world, events)
    func run(_ name: String, _ stripe: [String: Any]) throws -> (findings: String, notifications: String) {
      let config: [String: Any] = [
        "timeZone": "UTC", "stripe": stripe,
        "app": [
          "entitlements": "app/entitlements.csv", "credentials": "app/credentials.csv",
          "notifications": "app/notifications.csv",
        ],
        "catalog": ["stripe:pro_monthly": ["type": "subscription", "period": "P1M", "tier": "pro"]],
      ]
      let path = world.directory.appendingPathComponent("\(name).json")
      try JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]).write(to: path)
      let out = world.directory.appendingPathComponent("out-\(name)")
      let result = try Binary.run([
        "run", "--config", path.path, "--date", StripeFetchWorld.utc(world.now).prefix(10).description,
        "--out", out.path, "--quiet", "--no-history",
      ])
      #expect([0, 1, 3].contains(result.status), "\(name): \(result.stderr)")
      return (
        try String(contentsOf: out.appendingPathComponent("findings.csv"), encoding: .utf8),
        try String(contentsOf: out.appendingPathComponent("notifications.csv"), encoding: .utf8)
      )
    }
    let files = try run("files", ["objects": ["source/objects.jsonl", "source/webhooks.jsonl"]])
    let fetched = try run(
      "fetched", ["objects": ["fetched/stripe/objects/*.jsonl"], "events": ["fetched/stripe/events/*.jsonl"]])
    let health = files.findings.split(separator: "\n").filter { $0.contains(",notification_") }
    #expect(health.contains { $0.contains("never_received") && $0.contains("evt_2Paid") }, "\(health)")
    #expect(health.contains { $0.contains("unprocessed") && $0.contains("evt_4Updated") }, "\(health)")
    #expect(health.count == 2, "\(health)")
    #expect(fetched.findings == files.findings)
    #expect(fetched.notifications == files.notifications)

    try Self.aDayLater(world, events: events, subA: subA)
  }

  /// A day later sub_A goes past due, and Stripe says so in an event. The next fetch adds one file to
  /// each journal; the run after it replays the earlier files from their snapshots and parses the two
  /// new ones only, and writes what a --from-scratch run writes.
  static func aDayLater(_ world: StripeFetchWorld, events: [[String: Any]], subA: [String: Any]) throws {
    var later = Self.liveObjects(world)
    for i in later.indices where later[i]["id"] as? String == "sub_A" { later[i]["status"] = "past_due" }
    try world.write("objects.json", later)
    var pastDue = subA
    pastDue["status"] = "past_due"
    try world.write(
      "events.json",
      events + [Self.event("evt_5PastDue", "customer.subscription.updated", created: world.days(1), pastDue)])
    _ = try world.fetch(stripe: ["reports": false])
    #expect(world.journal().count == 2 && world.journal("stripe/events").count == 2)
    let args = [
      "run", "--config", world.directory.appendingPathComponent("fetched.json").path,
      "--date", StripeFetchWorld.utc(world.now).prefix(10).description, "--no-history",
    ]
    let helped = try Binary.run(args + ["--out", world.directory.appendingPathComponent("out-helped").path])
    #expect(
      helped.stderr.contains(
        "snapshot: 2 Stripe files merged without parsing, 2 parsed in full (2: no snapshot yet)"),
      "\(helped.stderr)")
    let scratch = try Binary.run(
      args + ["--out", world.directory.appendingPathComponent("out-scratch").path, "--from-scratch"])
    #expect([0, 1, 3].contains(helped.status) && helped.status == scratch.status, "\(scratch.stderr)")
    for name in ["findings.csv", "notifications.csv", "revenue.csv", "charges.csv"] {
      let a = try String(
        contentsOf: world.directory.appendingPathComponent("out-helped/\(name)"), encoding: .utf8)
      let b = try String(
        contentsOf: world.directory.appendingPathComponent("out-scratch/\(name)"), encoding: .utf8)
      #expect(a == b, "\(name)")
    }
  }
}
