import StoreReconCore
import StoreReconSettings

/// The objects step of `fetch stripe`. The first fetch lists every kind of object created in the last
/// `fetch.stripe.backfillDays` days (prices and products whole), then reads the events of that time; a
/// later fetch reads only the events since the previous one (`GET /v1/events`, newest first, paged with
/// `starting_after`) and asks again for each object an event names, so the file holds each object's
/// state now, in the pinned API version and with its expansions (an event holds the object as it was,
/// in the version of its day). Stripe keeps events 30 days: a cursor older than that is said, and
/// the objects created since it are listed again. Objects the kept ones refer to (a subscription's
/// customer and prices, a price's product, a refund's charge) are asked for when the file lacks them.
struct StripeObjectFetch {
  /// How far back Stripe lists events (30 days), less an hour for the clocks' difference.
  static let eventWindowSeconds: Int64 = 30 * 86_400 - 3_600
  /// Each fetch lists events from this long before the newest one read: an event Stripe lists late is
  /// not missed (the ones already read are skipped by id).
  static let overlapSeconds: Int64 = 300
  /// Rounds of asking for referred-to objects (subscription → price → product is two).
  static let referenceRounds = 4

  let context: FetchContext
  let api: StripeAPI
  let backfillDays: Int

  /// What the step did.
  struct Outcome {
    var listed = 0
    var events = 0
    var retrieved = 0
    var referenced = 0
    /// Objects an event or a reference named that Stripe answered 404 for (deleted, or another account's).
    var unknown = 0
    /// Objects in the file after the step.
    var total = 0
    /// Events in `stripe/events.jsonl` after the step.
    var eventsKept = 0
    /// Why objects were listed (`first fetch`, or the stale cursor's sentence); `nil` when they were not.
    var listing: String?
  }

  /// Fetches, writes the file, and only then moves `state`'s cursor (the state never claims more than
  /// the file holds).
  func run(_ saved: inout StripeFetchState) throws(FetchError) -> Outcome {
    var state = saved
    var objectsJournal = StripeObjects.journal(context.output)
    var eventsJournal = StripeEvents.journal(context.output)
    for (journal, role) in [(objectsJournal, "stripe.objects"), (eventsJournal, "stripe.events")] {
      var moving = journal
      if try moving.migrate() { context.progress.note(moving.migrated("fetch stripe", role: role)) }
    }
    objectsJournal = StripeObjects.journal(context.output)
    eventsJournal = StripeEvents.journal(context.output)
    var objects = try StripeObjects.previous(objectsJournal)
    var kept = try StripeEvents.previous(eventsJournal)
    var outcome = Outcome()
    let now = Int64(context.clock.now())
    var fresh = Set<String>()
    let eventsFrom: Int64
    var again: [(StripeResource, String)] = []
    if let through = state.eventsThrough, through >= now - StripeObjectFetch.eventWindowSeconds {
      eventsFrom = through - StripeObjectFetch.overlapSeconds
    } else {
      let since: Int64
      if let through = state.eventsThrough {
        since = through - StripeObjectFetch.overlapSeconds
        outcome.listing =
          "the last fetch read events up to \(StripeObjectFetch.day(through)), longer ago than the 30 days "
          + "Stripe keeps them: listing the objects created since then again, and asking again for every "
          + "subscription not ended and dispute not closed"
        again =
          objects.unsettled(.subscription, member: "status", final: ["canceled", "incomplete_expired"])
          .map { (.subscription, $0) }
          + objects.unsettled(.dispute, member: "status", final: ["won", "lost", "prevented"]).map {
            (.dispute, $0)
          }
      } else {
        since = now - Int64(backfillDays) * 86_400
        outcome.listing = "first fetch, \(backfillDays) days back"
      }
      for resource in StripeResource.allCases {
        outcome.listed += try list(resource, since: since, into: &objects, fresh: &fresh)
      }
      eventsFrom = max(since, now - StripeObjectFetch.eventWindowSeconds)
    }
    let before = state.eventsThrough
    let named = try events(from: eventsFrom, &state, count: &outcome.events, into: &kept)
    // Objects were listed and no event came: the events from now on are the next fetch's.
    if outcome.listing != nil, state.eventsThrough == before {
      state.eventsThrough = now - StripeObjectFetch.overlapSeconds
    }
    var unknown = Set<String>()
    for (resource, id) in (again + named) where !fresh.contains(id) {
      if try retrieve(resource, id, into: &objects) { outcome.retrieved += 1 } else { unknown.insert(id) }
      fresh.insert(id)
    }
    for _ in 0..<StripeObjectFetch.referenceRounds {
      let missing = objects.missingReferences().filter { !unknown.contains($0.1) }
      if missing.isEmpty { break }
      for (resource, id) in missing {
        if try retrieve(resource, id, into: &objects) { outcome.referenced += 1 } else { unknown.insert(id) }
      }
    }
    outcome.unknown = unknown.count
    outcome.total = objects.count
    outcome.eventsKept = kept.count
    // What is new or changed, as each journal's next file; a journal with no file yet gets an empty
    // first one, so that the run's pattern matches.
    let nowMs = Int64(context.clock.now() * 1000)
    for (journal, bytes) in [(objectsJournal, objects.takeChanged()), (eventsJournal, kept.takeAdded())] {
      var journal = journal
      if let bytes {
        try journal.append(bytes, nowMs: nowMs)
      } else if journal.names.isEmpty {
        try context.output.write([], to: journal.folder + "/" + FetchJournal.historyName)
      }
    }
    saved = state
    return outcome
  }

  /// Lists every object of `resource` (created since `since`, unless the whole catalog is listed) into
  /// `objects`; returns how many.
  func list(
    _ resource: StripeResource, since: Int64, into objects: inout StripeObjects, fresh: inout Set<String>
  ) throws(FetchError) -> Int {
    var query = resource.listQuery
    if !resource.listedWhole { query.append(("created[gte]", String(since))) }
    var count = 0
    try pages(resource.path, query) { (line, object, request) throws(FetchError) in
      guard object["object"] as? String == resource.rawValue else {
        throw FetchError(
          .dataError, "\(request.label): the list holds an object that is not a \(resource.rawValue)")
      }
      try objects.put(line, object)
      if let id = object["id"] as? String { fresh.insert(id) }
      count += 1
    }
    return count
  }

  /// Reads the events created since `from` (skipping those read before) into `kept`, moves the cursor,
  /// and returns the objects they name (kind and id, in the order first named).
  func events(
    from: Int64, _ state: inout StripeFetchState, count: inout Int, into kept: inout StripeEvents
  ) throws(FetchError)
    -> [(StripeResource, String)]
  {
    let seen = Set(state.recentEvents)
    var listed: [(id: String, created: Int64)] = []
    var named: [(StripeResource, String)] = []
    var namedIds = Set<String>()
    let query = [("limit", String(StripeAPI.pageSize)), ("created[gte]", String(from))]
    try pages("/v1/events", query) { (line, event, request) throws(FetchError) in
      guard let id = event["id"] as? String, let created = StripeObjectFetch.integer(event["created"]),
        let data = event["data"] as? [String: Any], let object = data["object"] as? [String: Any]
      else { throw FetchError(.dataError, "\(request.label): an event without id, created or data.object") }
      listed.append((id, created))
      kept.put(id, line)
      guard !seen.contains(id), let target = StripeObjectFetch.target(of: object) else { return }
      count += 1
      if namedIds.insert(target.1).inserted { named.append(target) }
    }
    if let newest = listed.map(\.created).max() {
      let through = max(state.eventsThrough ?? newest, newest)
      state.eventsThrough = through
      state.recentEvents = listed.filter { $0.created >= through - StripeObjectFetch.overlapSeconds }.map(
        \.id
      )
      .sorted()
    }
    return named
  }

  /// The object an event's `data.object` names: itself when it is a kind kept, the invoice of an
  /// `invoice_payment`; `nil` for the kinds not kept.
  static func target(of object: [String: Any]) -> (StripeResource, String)? {
    guard let kind = object["object"] as? String else { return nil }
    if kind == "invoice_payment", let invoice = StripeObjects.ids(at: ["invoice"], in: object).first {
      return (.invoice, invoice)
    }
    guard let resource = StripeResource(rawValue: kind), let id = object["id"] as? String, !id.isEmpty
    else { return nil }
    return (resource, id)
  }

  /// Asks for one object (with its expansions) and keeps it; `false` when Stripe answers 404.
  func retrieve(_ resource: StripeResource, _ id: String, into objects: inout StripeObjects)
    throws(FetchError) -> Bool
  {
    let answer = try api.get(
      resource.path + "/" + StripeAPI.escape(id), resource.expand.map { ("expand[]", $0) }, accepting: [404])
    if answer.status == 404 { return false }
    guard answer.object["object"] as? String == resource.rawValue, answer.object["id"] as? String == id else {
      throw FetchError(
        .dataError, "\(answer.request.label): the answer is not the \(resource.rawValue) asked for")
    }
    try objects.put(StripeJSON.compact(answer.body[...]), answer.object)
    return true
  }

  /// Every page of the list at `path` (`starting_after` the last id while `has_more`), each element given
  /// with its text as Stripe wrote it.
  func pages(
    _ path: String, _ query: [(String, String)],
    _ each: ([UInt8], [String: Any], HTTPRequest) throws(FetchError) -> Void
  ) throws(FetchError) {
    var after: String?
    var cursors = Set<String>()
    while true {
      var pageQuery = query
      if let after { pageQuery.append(("starting_after", after)) }
      let answer = try api.get(path, pageQuery)
      guard answer.object["object"] as? String == "list", let data = answer.object["data"] as? [Any],
        let more = answer.object["has_more"] as? Bool,
        let ranges = StripeJSON.elements(of: "data", in: answer.body), ranges.count == data.count
      else {
        throw FetchError(.dataError, "\(answer.request.label): the answer is not a Stripe list object")
      }
      for (item, range) in zip(data, ranges) {
        guard let object = item as? [String: Any] else {
          throw FetchError(.dataError, "\(answer.request.label): a list element is not an object")
        }
        try each(StripeJSON.compact(answer.body[range]), object, answer.request)
      }
      guard more else { return }
      guard let last = (data.last as? [String: Any])?["id"] as? String, cursors.insert(last).inserted else {
        throw FetchError(
          .dataError, "\(answer.request.label): has_more with no new last id (the list does not end)")
      }
      after = last
    }
  }

  /// A JSON number as a whole number of seconds.
  static func integer(_ value: Any?) -> Int64? {
    if let n = value as? Int { return Int64(n) }
    if let n = value as? Int64 { return n }
    return nil
  }

  /// `YYYY-MM-DD` (UTC) of `seconds` since 1970.
  static func day(_ seconds: Int64) -> String {
    let date = CivilDate(daysSinceEpoch: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    return date.description
  }
}
