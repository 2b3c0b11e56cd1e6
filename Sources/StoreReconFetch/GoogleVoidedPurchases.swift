import Foundation
import StoreReconSettings

/// `purchases.voidedpurchases.list` (with `type=1`: subscriptions too) for the time since the last
/// fetch, merged into `play/voided.jsonl` by `orderId` (a renewal has an order of its own while it
/// shares the purchase token) and the file rewritten whole: the latest state of every voided order, in
/// the shape the run's importer reads (docs/inputs.md#google-play-voided-purchases).
///
/// `startTime` filters on when Google recorded the void; Google answers at most 30 days back, so the
/// first fetch asks for the last `fetch.google.backfillDays` days (at most 30) and each later one from an
/// hour before the previous one's `endTime`.
struct GoogleVoidedPurchases {
  /// The file, relative to `fetch.into`.
  static let path = "play/voided.jsonl"
  /// The most Google lists per page.
  static let pageSize = 1000
  /// How far back Google answers (30 days), less a minute for the clocks' difference.
  static let windowMillis: Int64 = 30 * 86_400_000 - 60_000
  /// Each fetch starts this long before the previous one ended: a void recorded late is not missed.
  static let overlapMillis: Int64 = 3_600_000

  let context: FetchContext
  let auth: GoogleAuth
  let packageName: String
  let backfillDays: Int

  /// What one pass did.
  struct Outcome {
    /// Voids listed by this fetch.
    var listed = 0
    /// The purchase tokens of every void in the file, sorted.
    var tokens: [String] = []
  }

  /// Lists, merges, writes the file when it changed and moves the cursor.
  func run(_ state: inout GoogleFetchState) throws(FetchError) -> Outcome {
    let end = Int64(context.clock.now() * 1000)
    let oldest = end - GoogleVoidedPurchases.windowMillis
    let backfill = end - Int64(backfillDays) * 86_400_000
    let start = max(oldest, state.voidedStartMillis ?? backfill)
    var merged = try GoogleJSON.previous(
      context.output, GoogleVoidedPurchases.path, key: "orderId", what: "voided purchases")
    let base =
      context.config.playDeveloperURL + "/androidpublisher/v3/applications/" + GoogleURL.segment(packageName)
      + "/purchases/voidedpurchases"
    var pageToken: String?
    var seenTokens = Set<String>()
    var listed = 0
    repeat {
      var query = [
        ("startTime", String(start)), ("endTime", String(end)), ("type", "1"),
        ("maxResults", String(GoogleVoidedPurchases.pageSize)),
      ]
      if let pageToken { query.append(("token", pageToken)) }
      let request = HTTPRequest(url: GoogleURL.query(base, query), headers: [("Accept", "application/json")])
      let response = try context.http.send(request, tokens: auth)
      try context.http.require(response, for: request)
      let body = try GoogleJSON.object(response, for: request)
      for voided in try GoogleVoidedPurchases.entries(body, request) {
        if let order = voided["orderId"] as? String { merged[order] = voided }
        listed += 1
      }
      pageToken = (body["tokenPagination"] as? [String: Any])?["nextPageToken"] as? String
      if let next = pageToken, !seenTokens.insert(next).inserted {
        throw FetchError(.dataError, "\(request.label): the page token repeats (the list does not end)")
      }
    } while pageToken?.isEmpty == false
    var bytes: [UInt8] = []
    for order in merged.keys.sorted() {
      if let voided = merged[order] { bytes += try GoogleJSON.line(voided) }
    }
    try context.output.write(bytes, to: GoogleVoidedPurchases.path)
    state.voidedStartMillis = end - GoogleVoidedPurchases.overlapMillis
    let tokens = Set(merged.values.compactMap { $0["purchaseToken"] as? String }.filter { !$0.isEmpty })
    return Outcome(listed: listed, tokens: tokens.sorted())
  }

  /// The `voidedPurchases` of one page (none when absent); each must be an object with an `orderId`.
  static func entries(_ body: [String: Any], _ request: HTTPRequest) throws(FetchError) -> [[String: Any]] {
    guard let value = body["voidedPurchases"] else { return [] }
    guard let list = value as? [Any] else {
      throw FetchError(.dataError, "\(request.label): voidedPurchases is not a list")
    }
    var out: [[String: Any]] = []
    for (index, item) in list.enumerated() {
      guard let object = item as? [String: Any], let order = object["orderId"] as? String, !order.isEmpty
      else {
        throw FetchError(.dataError, "\(request.label): voidedPurchases[\(index)] has no orderId")
      }
      out.append(object)
    }
    return out
  }
}
