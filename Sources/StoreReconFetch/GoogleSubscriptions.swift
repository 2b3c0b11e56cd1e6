import Foundation
import StoreReconCore
import StoreReconSettings

/// `purchases.subscriptionsv2.get` for every purchase token the app knows, and for every token those
/// resources link to (`linkedPurchaseToken`: the purchase an upgrade, downgrade or resubscription
/// replaced), into `play/subscriptions.jsonl`: one resource per token, the token added as the top-level
/// `purchaseToken` the run's importer reads (docs/inputs.md#google-play-subscriptions-subscriptionsv2).
///
/// The file holds the latest state: a resource that is settled (expired more than ``settledDays`` ago,
/// or a pending purchase cancelled) is kept as it is; every other is asked for again each day. A token
/// Google does not know (404, 410, or 400 for one that is not a subscription's) is recorded in the state
/// and reported, and does not stop the fetch.
struct GoogleSubscriptions {
  /// The file, relative to `fetch.into`.
  static let path = "play/subscriptions.jsonl"
  /// A subscription that expired this many days ago no longer changes: it is not asked for again.
  static let settledDays: Int64 = 30

  let context: FetchContext
  let auth: GoogleAuth
  let packageName: String

  /// What one pass did.
  struct Outcome {
    var resources = 0
    var asked = 0
    var kept = 0
    var unknown: [String] = []
  }

  /// Fetches, writes the file when it changed and records unknown tokens in `state`. `voidedTokens` are
  /// the purchase tokens of the voided purchases; `orders`, when given, finds the tokens of the sales
  /// reports' subscription orders that no resource accounts for once the known tokens are done (a purchase
  /// the app never claimed is known from those).
  func run(_ state: inout GoogleFetchState, voidedTokens: [String], orders: GoogleOrders?) throws(FetchError)
    -> Outcome
  {
    let previous = try GoogleJSON.previous(
      context.output, GoogleSubscriptions.path, key: "purchaseToken", what: "subscriptions")
    let known = context.known.keys(for: .play)
    var queue = known.filter { !GoogleSubscriptions.isOrderId($0) } + previous.keys.sorted() + voidedTokens
    var pass = Pass(
      previous: previous, now: Instant(ms: Int64(context.clock.now() * 1000)), day: context.asOf.description)
    try pass.drain(&queue, &state, fetch)
    if let orders {
      var wanted = orders.salesOrderIds()
      wanted.subtract(pass.resources.values.flatMap(GoogleSubscriptions.orderBaseIds))
      queue += try orders.tokens(for: wanted, state: &state)
      try pass.drain(&queue, &state, fetch)
    }
    var bytes: [UInt8] = []
    for token in pass.resources.keys.sorted() {
      if let resource = pass.resources[token] { bytes += try GoogleJSON.line(resource) }
    }
    try context.output.write(bytes, to: GoogleSubscriptions.path)
    pass.outcome.resources = pass.resources.count
    return pass.outcome
  }

  /// The tokens asked about so far and what came back.
  private struct Pass {
    let previous: [String: [String: Any]]
    let now: Instant
    /// The fetch's day, recorded with a token Google does not know.
    let day: String
    var seen = Set<String>()
    var resources: [String: [String: Any]] = [:]
    var outcome = Outcome()

    init(previous: [String: [String: Any]], now: Instant, day: String) {
      self.previous = previous
      self.now = now
      self.day = day
    }

    /// Asks about every token of `queue` not seen yet (a settled resource is kept instead), and appends the
    /// linked tokens of each resource to it.
    mutating func drain(
      _ queue: inout [String], _ state: inout GoogleFetchState,
      _ fetch: (String) throws(FetchError) -> [String: Any]?
    ) throws(FetchError) {
      while !queue.isEmpty {
        let token = queue.removeFirst()
        guard seen.insert(token).inserted else { continue }
        var resource = previous[token]
        if let kept = resource, GoogleSubscriptions.isSettled(kept, now: now) {
          outcome.kept += 1
        } else if let fetched = try fetch(token) {
          resource = fetched
          state.unknownTokens[token] = nil
          outcome.asked += 1
        } else {
          state.unknownTokens[token] = day
          outcome.unknown.append(token)
          outcome.asked += 1
        }
        guard let resource else { continue }
        resources[token] = resource
        if let linked = resource["linkedPurchaseToken"] as? String, !linked.isEmpty, !seen.contains(linked) {
          queue.append(linked)
        }
      }
    }
  }

  /// The first order ids of a resource's line items (`latestSuccessfulOrderId`, and the older
  /// `latestOrderId`), without `..N`.
  static func orderBaseIds(_ resource: [String: Any]) -> [String] {
    var ids = (resource["lineItems"] as? [[String: Any]] ?? []).compactMap {
      $0["latestSuccessfulOrderId"] as? String
    }
    if let legacy = resource["latestOrderId"] as? String { ids.append(legacy) }
    return ids.map(PlayOrderId.base)
  }

  /// The resource of `token` with `purchaseToken` added; `nil` when Google does not know the token.
  private func fetch(_ token: String) throws(FetchError) -> [String: Any]? {
    let url =
      context.config.playDeveloperURL + "/androidpublisher/v3/applications/" + GoogleURL.segment(packageName)
      + "/purchases/subscriptionsv2/tokens/" + GoogleURL.segment(token)
    let request = HTTPRequest(url: url, headers: [("Accept", "application/json")])
    let response = try context.http.send(request, tokens: auth)
    // 404: Google does not know the token; 410: it expired too long ago; 400: it is not a subscription's
    // (a voided one-time product's token). None stops the fetch.
    if response.status == 404 || response.status == 410 || response.status == 400 { return nil }
    try context.http.require(response, for: request)
    var resource = try GoogleJSON.object(response, for: request)
    if let kind = resource["kind"] as? String, kind != "androidpublisher#subscriptionPurchaseV2" {
      throw FetchError(.dataError, "\(request.label): the answer is a \(kind), not a subscriptionPurchaseV2")
    }
    resource["purchaseToken"] = token
    return resource
  }

  /// Whether a Play store key is an order id (`GPA.…`) rather than a purchase token.
  static func isOrderId(_ key: String) -> Bool { key.hasPrefix("GPA.") }

  /// Whether `resource` can no longer change: expired (every line item) more than ``settledDays`` before
  /// `now`, or a pending purchase that was cancelled.
  static func isSettled(_ resource: [String: Any], now: Instant) -> Bool {
    let state = resource["subscriptionState"] as? String
    if state == "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED" { return true }
    guard state == "SUBSCRIPTION_STATE_EXPIRED" else { return false }
    let items = resource["lineItems"] as? [[String: Any]] ?? []
    let expiries = items.compactMap { ($0["expiryTime"] as? String).flatMap(Instant.parseISO8601) }
    guard expiries.count == items.count, let latest = expiries.max() else { return false }
    return latest < now.adding(days: -settledDays)
  }
}
