import Foundation
import StoreReconCore
import StoreReconSettings

extension AppleRun {
  /// The notification history since the last fetch (the first: ``FetchConfig/Apple/backfillDays`` back),
  /// merged into `apple/notifications.jsonl` by UUID; returns the original transaction ids the new
  /// notifications name. Apple keeps 180 days of history: the window starts no earlier.
  mutating func notificationHistory(_ report: inout FetchReport) throws(FetchError) -> Set<String> {
    let end = nowMs
    let backfill = Int64(context.config.apple?.backfillDays ?? 30)
    var start = state.notificationsThrough ?? end - backfill * Instant.msPerDay
    start = max(start, end - 179 * Instant.msPerDay)
    guard start < end else { return [] }
    var kept = try AppleNotification.load(context.output.read(AppleNotification.path))
    let before = kept
    var named = Set<String>()
    var token: String?
    var seenTokens = Set<String>()
    var pages = 0
    repeat {
      let body = "{\"startDate\":\(start),\"endDate\":\(end)}"
      let query = token.map { [("paginationToken", $0)] } ?? []
      let request = HTTPRequest(
        method: "POST",
        url: context.config.appStoreServerURL + "/inApps/v1/notifications/history"
          + AppleRun.queryString(query),
        headers: [("Content-Type", "application/json")], body: Array(body.utf8))
      let response = try context.http.send(request, tokens: tokens)
      try context.http.require(response, for: request)
      let page = try AppleResponse.notificationPage(response, request)
      for notification in page.notifications {
        kept[notification.uuid] = notification
        if !notification.originalTransactionId.isEmpty { named.insert(notification.originalTransactionId) }
      }
      token = page.hasMore ? page.paginationToken : nil
      pages += 1
      if let next = token, !seenTokens.insert(next).inserted {
        throw FetchError(
          .dataError, "\(request.label): the pagination token repeats (the notification history does not end)"
        )
      }
    } while token != nil
    if kept != before {
      try context.output.write(AppleNotification.serialized(kept), to: AppleNotification.path)
    }
    state.notificationsThrough = end
    try save()
    report.records += kept.count
    context.progress.note(
      "fetch apple: notification history, \(pages) pages, \(kept.count - before.count) new notifications")
    return named
  }
}
