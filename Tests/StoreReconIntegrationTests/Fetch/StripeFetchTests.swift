import Foundation
import Testing
import StoreReconCore
import StoreReconFetch
import StoreReconSettings
import StoreReconTestSupport

/// `fetch stripe` against the loopback server (stripe_api_server.py): the lists paged with
/// `starting_after`, `status=all` and the expansions, the events of a later fetch, the objects referred
/// to, the balance report through report runs (polled, then downloaded), the pinned version, and the
/// failures: a 429 with Retry-After, a 500, a refused key, an HTML page, a key file others can read, a
/// key of the wrong shape, a failed report run, an event cursor older than Stripe's 30 days.
@Suite(.serialized, .enabled(if: StripeFetchWorld.available, StripeFetchWorld.unavailable))
struct StripeFetchTests {
  /// Runs the fetch expecting `kind`; returns the message (checked to hold no key).
  func failure(
    _ world: StripeFetchWorld, _ kind: FailureKind, stripe: [String: Any] = [:],
    environment: [String: String] = [:]
  ) -> String {
    do {
      _ = try world.fetch(stripe: stripe, environment: environment)
    } catch {
      #expect(error.kind == kind, "\(error.message)")
      #expect(world.leaks(in: [error.message]).isEmpty, "\(error.message)")
      return error.message
    }
    Issue.record("the fetch did not fail")
    return ""
  }

  @Test func aFirstFetchListsEverythingAndRunsTheReport() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    let clock = RecordingClock(time: Double(world.now))
    let (reports, progress) = try world.fetch(clock: clock)
    #expect(reports.count == 1 && reports[0].source == "stripe")

    // Every request carried the key and the pinned version.
    let log = world.log()
    #expect(
      log.allSatisfy { $0["authorized"] as? Bool == true && $0["version"] as? String == "2025-03-31.basil" })

    // The eight lists, created since 30 days back (the catalog whole), subscriptions with status=all,
    // the expansions asked for; customers in two pages.
    func queries(_ path: String) -> [[String: Any]] {
      world.requests(path).map { $0["query"] as? [String: Any] ?? [:] }
    }
    let since = String(world.days(30))
    #expect(queries("/v1/subscriptions").first?["status"] as? String == "all")
    #expect(queries("/v1/subscriptions").first?["created[gte]"] as? String == since)
    #expect(queries("/v1/invoices").first?["expand[]"] as? [String] == ["data.payments"])
    #expect(queries("/v1/charges").first?["expand[]"] as? [String] == ["data.balance_transaction"])
    #expect(queries("/v1/prices").first?["created[gte]"] == nil)
    let customers = queries("/v1/customers")
    #expect(customers.count == 2)
    #expect(customers.last?["starting_after"] as? String != nil)

    // The file: every object once, by id; sub_OLD and cus_OLD came by reference (in_R names them); the
    // canceled subscription is there; the expansions are in.
    let objects = world.objectsById()
    for id in [
      "sub_A", "sub_C", "sub_OLD", "cus_A", "cus_OLD", "in_A", "in_R", "ch_A", "ch_R", "re_A", "dp_A",
      "price_M", "prod_PRO", "cus_P000", "cus_P119",
    ] {
      #expect(objects[id] != nil, "\(id) missing")
    }
    #expect(objects.count == 15 + 118)
    #expect(
      world.lines().map { String($0.prefix(40)) } == world.lines().map { String($0.prefix(40)) }.sorted())
    #expect((objects["in_A"]?["payments"] as? [String: Any])?["object"] as? String == "list")
    #expect((objects["ch_A"]?["balance_transaction"] as? [String: Any])?["fee"] as? Int == 59)
    #expect(world.requests("/v1/subscriptions/sub_OLD").count == 1)
    #expect(world.requests("/v1/customers/cus_OLD").count == 1)
    // Each line is the object's text as Stripe wrote it (its key order, its number 0.912345678901, its
    // UTF-8), the whitespace between tokens out.
    for line in world.lines() {
      let id =
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String ?? ""
      #expect(line == world.served(id), "\(id)")
    }
    #expect(
      world.lines().contains {
        $0.hasPrefix("{\"id\":\"cus_A\",\"object\":\"customer\"") && $0.contains("Zoë Ålund")
      })
    #expect(world.lines().contains { $0.contains("\"exchange_rate\":0.912345678901") })

    // The report: one run per month since the backfill start, polled until it succeeded (waits on the
    // clock, never in real time), the columns asked for, downloaded with the key.
    let months = world.reportMonths()
    let runs = world.requests("/v1/reporting/report_runs")
    #expect(runs.count == months.count)
    let form = runs.first?["form"] as? [String: Any]
    #expect((form?["parameters[columns][]"] as? [String])?.contains("automatic_payout_id") == true)
    #expect(runs.allSatisfy { ($0["idempotencyKey"] as? String)?.hasPrefix("storerecon-") == true })
    #expect(clock.sleeps.filter { $0 == 10 }.count == months.count * 3)
    for month in months {
      let text = try #require(
        world.fetched("stripe/reports/balance_change_from_activity_itemized_\(month).csv"))
      #expect(text.hasPrefix("balance_transaction_id,created_utc,available_on_utc,currency,gross,fee,net"))
    }
    let all = months.compactMap {
      world.fetched("stripe/reports/balance_change_from_activity_itemized_\($0).csv")
    }
    .joined()
    #expect(all.contains("txn_A,") && all.contains("txn_RE,") && !all.contains("txn_OLD"))
    #expect(progress.contains { $0.contains("objects listed (first fetch, 30 days back)") }, "\(progress)")
    #expect(world.leaks(in: progress).isEmpty)
  }

  @Test func laterFetchesFollowTheEventsAndANothingNewFetchChangesNoByte() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    _ = try world.fetch()
    let before = world.log().count

    // sub_A goes past due and a new charge comes; Stripe says so in two events.
    var objects = world.objects()
    for index in objects.indices where objects[index]["id"] as? String == "sub_A" {
      objects[index]["status"] = "past_due"
    }
    objects.append(world.charge("ch_NEW", created: world.now - 60, transaction: "txn_A"))
    try world.write("objects.json", objects)
    try world.write(
      "events.json",
      world.events() + [
        world.event(
          "evt_2", created: world.now - 120, type: "customer.subscription.updated",
          object: ["id": "sub_A", "object": "subscription", "status": "past_due"]),
        world.event(
          "evt_3", created: world.now - 60, type: "charge.succeeded",
          object: ["id": "ch_NEW", "object": "charge"]),
      ])
    let (_, progress) = try world.fetch()
    let second = Array(world.log().dropFirst(before)).map { $0["path"] as? String ?? "" }
    // No list but the events; the two objects asked for again (evt_1 was read by the first fetch).
    #expect(!second.contains("/v1/subscriptions") && !second.contains("/v1/customers"))
    #expect(second.filter { $0 == "/v1/events" }.count == 1)
    #expect(second.contains("/v1/subscriptions/sub_A") && second.contains("/v1/charges/ch_NEW"))
    #expect(world.objectsById()["sub_A"]?["status"] as? String == "past_due")
    #expect((world.objectsById()["ch_NEW"]?["balance_transaction"] as? [String: Any]) != nil)
    #expect(progress.contains { $0.contains("2 events, 2 objects asked for again") }, "\(progress)")
    // Every event listed is kept, as Stripe wrote it, by id (the one older than Stripe's 30 days is gone).
    let events = world.lines("stripe/events")
    #expect(
      events.map { String($0.prefix(13)) } == ["{\"id\":\"evt_1\"", "{\"id\":\"evt_2\"", "{\"id\":\"evt_3\""])
    #expect(progress.contains { $0.contains("3 events in stripe/events/") }, "\(progress)")
    // Both journals got one new file, holding only what this fetch found new or changed; the first
    // files are as the first fetch wrote them.
    #expect(world.journal("stripe/events").count == 2 && world.journal().count == 2)
    let added = (world.fetched("stripe/objects/" + (world.journal().last ?? "")) ?? "").split(separator: "\n")
    let ids = added.map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String ?? ""
    }
    #expect(ids == ["ch_NEW", "sub_A"], "\(added)")
    // The report: Stripe's data reach no further, so no run.
    #expect(!second.contains("/v1/reporting/report_runs"))

    // Nothing new: the files are not rewritten, their bytes the same.
    let snapshot = world.snapshot()
    let (reports, _) = try world.fetch()
    #expect(reports.first?.filesWritten == [])
    #expect(world.snapshot() == snapshot)

    // A folder an earlier version wrote: its single files become the journals' first files.
    let fm = FileManager.default
    let objectsText = world.lines().map { $0 + "\n" }.joined()
    let eventsText = world.lines("stripe/events").map { $0 + "\n" }.joined()
    for name in ["objects", "events"] {
      try fm.removeItem(at: world.into.appendingPathComponent("stripe/\(name)"))
    }
    try Data(objectsText.utf8).write(to: world.into.appendingPathComponent("stripe/objects.jsonl"))
    try Data(eventsText.utf8).write(to: world.into.appendingPathComponent("stripe/events.jsonl"))
    let (_, moved) = try world.fetch()
    #expect(
      moved.contains { $0.contains("stripe/objects.jsonl is now stripe/objects/000000-history.jsonl") },
      "\(moved)")
    #expect(world.journal() == ["000000-history.jsonl"])
    #expect(world.journal("stripe/events") == ["000000-history.jsonl"])
    #expect(world.fetched("stripe/objects.jsonl") == nil && world.fetched("stripe/events.jsonl") == nil)
    #expect(world.lines().map { $0 + "\n" }.joined() == objectsText)
    #expect(world.lines("stripe/events").map { $0 + "\n" }.joined() == eventsText)
  }

  @Test func a429IsRetriedAfterItsRetryAfterAndA500Too() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    try world.faults([
      "rateLimitOnce": ["/v1/subscriptions"], "retryAfter": 7, "serverErrorOnce": ["/v1/charges"],
    ])
    let clock = RecordingClock(time: Double(world.now))
    _ = try world.fetch(clock: clock)
    #expect(world.requests("/v1/subscriptions").map { $0["status"] as? Int ?? 0 } == [429, 200])
    #expect(world.requests("/v1/charges").map { $0["status"] as? Int ?? 0 } == [500, 200])
    #expect(clock.sleeps.contains(7))
    #expect(world.objectsById()["sub_A"] != nil && world.objectsById()["ch_A"] != nil)
  }

  @Test func aRefusedKeyIs77AndNeverShown() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    let other = "rk_test_51OtherKeyThatStripeDoesNotKnow9999wxyz"
    let message = failure(world, .noPermission, environment: [FetchConfig.Stripe.keyVariable: other])
    #expect(
      message.hasPrefix("GET /v1/subscriptions: HTTP 401 — Stripe refused the API key (from STRIPE_API_KEY)"),
      "\(message)")
    #expect(
      message.contains("invalid_request_error: Invalid API Key provided: [a key, not shown]"), "\(message)")
    #expect(!message.contains("9999wxyz") && !message.contains("rk_test_51O"))
    #expect(world.requests("/v1/subscriptions").count == 1)
    #expect(world.snapshot().keys.filter { $0.hasPrefix("stripe/") }.isEmpty)
  }

  @Test func aKeyFileOthersCanReadOrAKeyOfAnotherShapeIsRefusedBeforeAnyRequest() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: world.keyFile.path)
    let open = failure(world, .config)
    #expect(open.contains("(fetch.stripe.apiKeyFile) is open to group or others (mode 0644)"), "\(open)")
    #expect(open.contains("chmod 600"))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: world.keyFile.path)
    for (text, said) in [
      ("pk_test_51PublishableKey0000000000000000", "holds a publishable key (pk_…)"),
      ("whsec_0123456789abcdef0123456789abcdef", "holds a webhook signing secret"),
      ("my stripe key", "does not hold a Stripe API key of the expected shape"),
    ] {
      try Data(text.utf8).write(to: world.keyFile)
      let message = failure(world, .config)
      #expect(message.contains(said), "\(message)")
      #expect(message.contains("fetch needs a restricted key (rk_live_…)"))
      #expect(!message.contains(text))
    }
    #expect(world.log().isEmpty)
    let missing = failure(world, .missingInput, stripe: ["apiKeyFile": "nowhere.key"])
    #expect(missing.contains("nowhere.key (fetch.stripe.apiKeyFile) does not exist"))
  }

  @Test func theEnvironmentVariableHoldsTheKey() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    let (_, progress) = try world.fetch(
      stripe: ["apiKeyFile": "nowhere.key", "reports": false],
      environment: [FetchConfig.Stripe.keyVariable: StripeFetchWorld.key])
    #expect(world.objectsById()["sub_A"] != nil)
    #expect(world.requests("/v1/reporting/report_types/balance_change_from_activity.itemized.3").isEmpty)
    #expect(world.leaks(in: progress).isEmpty)
  }

  @Test func anHTMLPageIsRejectedAndNothingWritten() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    try world.faults(["html": ["/v1/refunds"]])
    let message = failure(world, .dataError)
    #expect(message == "GET /v1/refunds: the answer is an HTML page", "\(message)")
    #expect(world.journal().isEmpty)
    // No cursor was saved: the next fetch lists from the start again.
    try world.faults([:])
    _ = try world.fetch()
    #expect(world.objectsById()["re_A"] != nil)
  }

  @Test func aFailedReportRunIs75AndTheObjectsAreKept() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    try world.faults(["failRuns": true])
    let message = failure(world, .unavailable)
    #expect(message.contains("the balance report run for") && message.contains("ended failed"), "\(message)")
    #expect(message.contains("We could not run this report"))
    #expect(world.objectsById()["sub_A"] != nil)
    #expect(world.fetched("state.json")?.contains("eventsThrough") == true)
    #expect(world.fetched("state.json")?.contains("pendingRun") == false)
  }

  @Test func aCursorOlderThanStripesThirtyDaysIsSaidAndTheObjectsListedAgain() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    _ = try world.fetch(stripe: ["reports": false])
    // The state says the last event read is 45 days old.
    let statePath = world.into.appendingPathComponent("state.json")
    var root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: statePath)) as? [String: Any])
    var sources = root["sources"] as? [String: Any] ?? [:]
    var stripe = sources["stripe"] as? [String: Any] ?? [:]
    let old = world.days(45)
    stripe["eventsThrough"] = old
    sources["stripe"] = stripe
    root["sources"] = sources
    try JSONSerialization.data(withJSONObject: root).write(to: statePath)
    let before = world.log().count
    let (_, progress) = try world.fetch(stripe: ["reports": false])
    #expect(progress.contains { $0.contains("longer ago than the 30 days Stripe keeps them") }, "\(progress)")
    let lists = Array(world.log().dropFirst(before)).filter { $0["path"] as? String == "/v1/subscriptions" }
    #expect((lists.first?["query"] as? [String: Any])?["created[gte]"] as? String == String(old - 300))
    // The running subscriptions are asked for again; the canceled one is not.
    let paths = Array(world.log().dropFirst(before)).map { $0["path"] as? String ?? "" }
    #expect(paths.contains("/v1/subscriptions/sub_OLD") && !paths.contains("/v1/subscriptions/sub_C"))
  }

  @Test func plainFetchRunsTheStripeSectionAsAUserRunsIt() throws {
    let world = try StripeFetchWorld()
    defer { world.remove() }
    let config = world.directory.appendingPathComponent("storerecon.json")
    let object: [String: Any] = ["timeZone": "UTC", "fetch": world.fetchObject(stripe: ["reports": false])]
    try JSONSerialization.data(withJSONObject: object).write(to: config)
    let out = try Binary.run(["fetch", "--config", config.path])
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.hasPrefix("stripe: ") && out.stdout.contains("requests"), "\(out.stdout)")
    #expect(out.stderr.contains("objects in stripe/objects/"), "\(out.stderr)")
    #expect(world.objectsById()["sub_OLD"] != nil)
    #expect(world.leaks(in: [out.stdout, out.stderr]).isEmpty)
    // The same with a key others can read: refused, 78, nothing asked.
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: world.keyFile.path)
    let before = world.log().count
    let open = try Binary.run(["fetch", "stripe", "--config", config.path, "--quiet"])
    #expect(open.status == 78, "\(open.stderr)")
    #expect(open.stderr.contains("is open to group or others (mode 0640)"), "\(open.stderr)")
    #expect(world.log().count == before)
  }
}
