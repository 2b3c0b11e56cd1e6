import Foundation
import StoreReconSettings

/// Requests to Stripe's REST API: `Authorization: Bearer <key>`, the pinned `Stripe-Version`, queries and
/// forms encoded as Stripe reads them (`expand[]=…`, `created[gte]=…`), through the fetch's client (429
/// and 5xx retried with backoff, honouring `Retry-After`). An answer other than the ones asked for becomes
/// one line naming the request and Stripe's error `type`/`code`/`message`, with anything shaped like a key
/// taken out of the message (Stripe's 401 quotes part of the key).
struct StripeAPI {
  /// The API version every request pins, so the objects' shape does not follow the account's default
  /// (the shape after Stripe's 2025-03-31 changes: an invoice's `payments`, `parent.subscription_details`).
  static let version = "2025-03-31.basil"
  /// The most objects one list page holds.
  static let pageSize = 100

  let http: HTTPClient
  let baseURL: String
  let filesURL: String
  let key: StripeKey

  /// One answer: the request (for messages), the body's bytes and its decoded object.
  struct Answer {
    var request: HTTPRequest
    var status: Int
    var body: [UInt8]
    var object: [String: Any]
  }

  /// `GET baseURL + path?query`; statuses other than 200 and those in `accepting` throw.
  func get(_ path: String, _ query: [(String, String)] = [], accepting: Set<Int> = []) throws(FetchError)
    -> Answer
  {
    try send(HTTPRequest(url: StripeAPI.url(baseURL + path, query)), accepting: accepting)
  }

  /// `POST baseURL + path` with a form body and an `Idempotency-Key` (a retried POST makes no second
  /// object).
  func post(_ path: String, form: [(String, String)], idempotencyKey: String) throws(FetchError) -> Answer {
    var request = HTTPRequest(method: "POST", url: baseURL + path, body: Array(StripeAPI.encode(form).utf8))
    request.setHeader("Content-Type", "application/x-www-form-urlencoded")
    request.setHeader("Idempotency-Key", idempotencyKey)
    return try send(request, accepting: [])
  }

  /// The bytes at `url` (a report run's file), with the same key. Throws (data error) when the URL is not
  /// under `fetch.stripeFilesURL`: the key is never sent anywhere else.
  func download(_ url: String) throws(FetchError) -> (HTTPRequest, [UInt8]) {
    guard url.hasPrefix(filesURL + "/") else {
      throw FetchError(
        .dataError,
        "stripe: a report's file is at another host than fetch.stripeFilesURL (\(filesURL)); the key is not sent there"
      )
    }
    var request = authorized(HTTPRequest(url: url))
    request.setHeader("Accept", "text/csv")
    let response = try http.send(request)
    guard response.status == 200 else { throw failure(response, for: request) }
    return (request, response.body)
  }

  /// Sends `request` with the key and the version, and decodes the JSON answer.
  private func send(_ request: HTTPRequest, accepting: Set<Int>) throws(FetchError) -> Answer {
    let request = authorized(request)
    let response = try http.send(request)
    guard response.status == 200 || accepting.contains(response.status) else {
      throw failure(response, for: request)
    }
    guard (response.header("Content-Type") ?? "").lowercased().contains("json") else {
      let what = response.excerpt == "an HTML page" ? "an HTML page" : "not JSON"
      throw FetchError(.dataError, "\(request.label): the answer is \(what)")
    }
    guard let value = try? JSONSerialization.jsonObject(with: Data(response.body)),
      let object = value as? [String: Any]
    else {
      throw FetchError(
        .dataError, "\(request.label): the answer is not a whole JSON object (\(response.body.count) bytes)")
    }
    return Answer(request: request, status: response.status, body: response.body, object: object)
  }

  private func authorized(_ request: HTTPRequest) -> HTTPRequest {
    var request = request
    request.setHeader("Authorization", "Bearer \(key.secret)")
    request.setHeader("Stripe-Version", StripeAPI.version)
    return request
  }

  /// The error of an unexpected answer: 401 and 403 the key's (77), anything else the answer's (65).
  func failure(_ response: HTTPResponse, for request: HTTPRequest) -> FetchError {
    let detail = StripeAPI.errorDetail(response.body, hiding: key.secret)
    let said = detail.isEmpty ? (response.excerpt.isEmpty ? "" : ": \(response.excerpt)") : ": \(detail)"
    switch response.status {
    case 401:
      return FetchError(
        .noPermission,
        "\(request.label): HTTP 401 — Stripe refused the API key (from \(key.origin)); a key rolled or "
          + "deleted in the Dashboard stops working\(said)")
    case 403:
      return FetchError(
        .noPermission,
        "\(request.label): HTTP 403 — the key may not read this (give the restricted key Read on it; "
          + "docs/fetch.md#stripe)\(said)")
    default:
      return FetchError(.dataError, "\(request.label): HTTP \(response.status)\(said)")
    }
  }

  /// Stripe's error object (`{"error": {"type", "code", "message"}}`) as `type, code: message`, with every
  /// word shaped like a key (`sk_…`, `rk_…`, `pk_…`) and the key itself cut out; empty when the body is
  /// not one.
  static func errorDetail(_ body: [UInt8], hiding secret: String) -> String {
    guard let root = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let error = root["error"] as? [String: Any]
    else { return "" }
    let kinds = [error["type"], error["code"]].compactMap { $0 as? String }.filter { !$0.isEmpty }
    var message = (error["message"] as? String) ?? ""
    if !secret.isEmpty { message = message.replacingOccurrences(of: secret, with: "…") }
    let words = message.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
      let bare = word.drop { $0 == "'" || $0 == "\"" || $0 == "(" }
      let secretish = ["sk_", "rk_", "pk_", "whsec_"].contains { bare.hasPrefix($0) }
      return secretish ? "[a key, not shown]" : String(word)
    }
    message = words.joined(separator: " ")
    if message.count > 300 { message = String(message.prefix(300)) + "…" }
    return kinds.joined(separator: ", ") + (message.isEmpty ? "" : (kinds.isEmpty ? "" : ": ") + message)
  }

  /// `base?query`, each name and value percent-encoded (`expand[]` as `expand%5B%5D`).
  static func url(_ base: String, _ query: [(String, String)]) -> String {
    query.isEmpty ? base : base + "?" + encode(query)
  }

  /// `name=value&…`, percent-encoded (RFC 3986 unreserved characters kept).
  static func encode(_ pairs: [(String, String)]) -> String {
    pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
  }

  static func escape(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let unreserved =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
      if unreserved {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
      }
    }
    return out
  }
}

extension String {
  /// Padded with zeros on the left to `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
