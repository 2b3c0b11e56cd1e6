import StoreReconIO
import StoreReconSettings

/// The shapes of the App Store Server API's answers, checked: a response that is not what the
/// documentation says (an HTML error page, truncated JSON, a JWS that does not decode) is a data error
/// naming the request, and nothing from it is kept.
enum AppleResponse {
  /// A page of signed transactions (`HistoryResponse`, `RefundHistoryResponse`).
  struct TransactionPage {
    var transactions: [AppleTransactionStore.Entry]
    var revision: String
    var hasMore: Bool
  }

  /// A page of notification history (`NotificationHistoryResponse`).
  struct NotificationPage {
    var notifications: [AppleNotification]
    var paginationToken: String?
    var hasMore: Bool
  }

  /// The body of `response` as a JSON object.
  static func object(_ response: HTTPResponse, _ request: HTTPRequest) throws(FetchError) -> JSONValue {
    let value: JSONValue
    do {
      value = try JSONParser.parse(response.body)
    } catch {
      throw FetchError(
        .dataError, "\(request.label): the response is not JSON (\(error.message)): \(response.excerpt)")
    }
    guard case .object = value else {
      throw FetchError(.dataError, "\(request.label): the response is not a JSON object: \(response.excerpt)")
    }
    return value
  }

  /// A transaction history or refund history page.
  static func transactionPage(_ response: HTTPResponse, _ request: HTTPRequest) throws(FetchError)
    -> TransactionPage
  {
    let body = try object(response, request)
    guard let signed = body["signedTransactions"]?.arrayValue, let revision = body["revision"]?.stringValue,
      let hasMore = body["hasMore"]?.boolValue
    else {
      throw FetchError(
        .dataError, "\(request.label): the response lacks signedTransactions, revision or hasMore")
    }
    var transactions: [AppleTransactionStore.Entry] = []
    for (index, item) in signed.enumerated() {
      guard let jws = item.stringValue, let entry = AppleTransactionStore.entry(jws) else {
        throw FetchError(
          .dataError, "\(request.label): signedTransactions[\(index)] is not a signed transaction (JWS)")
      }
      transactions.append(entry)
    }
    return TransactionPage(transactions: transactions, revision: revision, hasMore: hasMore)
  }

  /// A notification history page.
  static func notificationPage(_ response: HTTPResponse, _ request: HTTPRequest) throws(FetchError)
    -> NotificationPage
  {
    let body = try object(response, request)
    guard let items = body["notificationHistory"]?.arrayValue, let hasMore = body["hasMore"]?.boolValue else {
      throw FetchError(.dataError, "\(request.label): the response lacks notificationHistory or hasMore")
    }
    var notifications: [AppleNotification] = []
    for (index, item) in items.enumerated() {
      guard let notification = AppleNotification(item) else {
        throw FetchError(
          .dataError, "\(request.label): notificationHistory[\(index)] is not a signed notification (JWS)")
      }
      notifications.append(notification)
    }
    if hasMore, body["paginationToken"]?.stringValue == nil {
      throw FetchError(.dataError, "\(request.label): hasMore without a paginationToken")
    }
    return NotificationPage(
      notifications: notifications, paginationToken: body["paginationToken"]?.stringValue, hasMore: hasMore)
  }
}
