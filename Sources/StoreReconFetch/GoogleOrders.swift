import Foundation
import StoreReconCore
import StoreReconIO
import StoreReconSettings

/// Purchase tokens for the subscription orders of the sales reports that no token the app knows
/// accounts for: the Orders API (`orders:batchGet`, the order's `purchaseToken`). A purchase nobody
/// claimed has no token in the app's rows; its charges are in the sales report under its order id, and
/// this is how its subscription resource is found without the app's notification log.
///
/// Answers are kept in the state (order id → token, or an empty token when Google does not know the
/// order), so each order is asked about once.
struct GoogleOrders {
  /// The most order ids `orders:batchGet` takes in one call.
  static let batchSize = 1000

  let context: FetchContext
  let auth: GoogleAuth
  let packageName: String

  /// The first order ids (`GPA.…` without `..N`) of the subscription rows of every fetched sales report.
  /// A report that does not read as a sales report is named on the progress lines and skipped.
  func salesOrderIds() -> Set<String> {
    var out = Set<String>()
    let folder = context.output.path("play/sales")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names.sorted() where name.hasPrefix("salesreport_") {
      do {
        let reader = try CSVReader(path: folder + "/" + name, displayName: "play/sales/" + name)
        guard let order = reader.columnIndex("Order Number"), let type = reader.columnIndex("Product Type")
        else {
          context.progress.note(
            "fetch google: play/sales/\(name) has no Order Number column; its orders are not looked up")
          continue
        }
        try reader.forEachRecord { record in
          guard record.malformed == nil, record.count > max(order, type),
            record.string(type) == "subscription"
          else { return }
          let id = record.string(order)
          if GoogleSubscriptions.isOrderId(id) { out.insert(PlayOrderId.base(id)) }
        }
      } catch {
        context.progress.note("fetch google: \(error); its orders are not looked up")
      }
    }
    return out
  }

  /// The purchase tokens of `orders` (asked for those not in `state.orderTokens`), sorted.
  func tokens(for orders: Set<String>, state: inout GoogleFetchState) throws(FetchError) -> [String] {
    let unasked = orders.filter { state.orderTokens[$0] == nil }.sorted()
    var start = 0
    while start < unasked.count {
      let batch = Array(unasked[start..<min(start + GoogleOrders.batchSize, unasked.count)])
      start += batch.count
      let found = try batchGet(batch)
      for order in batch { state.orderTokens[order] = found[order] ?? "" }
    }
    return Set(orders.compactMap { state.orderTokens[$0] }.filter { !$0.isEmpty }).sorted()
  }

  /// Order id → purchase token for `batch`. Google fails the whole call when one id is unknown (404): the
  /// ids are then asked one at a time, and an unknown one left out.
  private func batchGet(_ batch: [String]) throws(FetchError) -> [String: String] {
    let base =
      context.config.playDeveloperURL + "/androidpublisher/v3/applications/" + GoogleURL.segment(packageName)
    let request = HTTPRequest(
      url: GoogleURL.query(base + "/orders:batchGet", batch.map { ("orderIds", $0) }),
      headers: [("Accept", "application/json")])
    let response = try context.http.send(request, tokens: auth)
    if response.status == 404 && batch.count > 1 {
      var out: [String: String] = [:]
      for order in batch { out.merge(try batchGet([order])) { a, _ in a } }
      return out
    }
    if response.status == 404 { return [:] }
    try context.http.require(response, for: request)
    let body = try GoogleJSON.object(response, for: request)
    var out: [String: String] = [:]
    for case let order as [String: Any] in body["orders"] as? [Any] ?? [] {
      if let id = order["orderId"] as? String, let token = order["purchaseToken"] as? String, !token.isEmpty {
        out[PlayOrderId.base(id)] = token
      }
    }
    return out
  }
}
