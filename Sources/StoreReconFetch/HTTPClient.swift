package import StoreReconSettings
/// The HTTP client every fetch source uses: sends a request through an ``HTTPTransport`` (libcurl), with
/// retries and exponential backoff on 429, 408, 5xx and transport failures (honouring `Retry-After`, as
/// seconds or as an HTTP date), a bounded request rate, and a bearer token re-made once on a 401.
///
/// How a source uses it:
///
/// ```swift
/// var request = HTTPRequest(url: context.config.appStoreServerURL + "/inApps/v2/history/\(id)")
/// let response = try context.http.send(request, tokens: signer)   // retried, paced, 401 → new token
/// try context.http.require(response, for: request, accepting: [200])  // 401/403 → 77, others → 65
/// ```
///
/// Errors name the request by ``HTTPRequest/label`` (method and path), never its query or headers.
package final class HTTPClient {
  /// How requests are retried and paced.
  package struct Policy: Sendable {
    /// Tries after the first for a retryable answer or failure (`fetch.retries`, 3 by default).
    package var retries = 3
    /// The first backoff wait in seconds; each further one doubles, up to ``maxBackoffSeconds``.
    package var backoffSeconds = 1.0
    package var maxBackoffSeconds = 60.0
    /// The longest `Retry-After` honoured; a longer one is cut to it.
    package var maxRetryAfterSeconds = 300.0
    /// At most this many requests start per second (`fetch.requestsPerSecond`); 0 for no bound.
    package var requestsPerSecond = 10.0

    /// The default policy.
    package init() {}
  }

  /// The transport (libcurl in a fetch).
  package let transport: any HTTPTransport
  package let policy: Policy
  package let clock: any FetchClock
  /// Requests sent so far (every try counts).
  package private(set) var requestsSent = 0
  /// Waits for a retry so far (backoff and `Retry-After`).
  package private(set) var retriesMade = 0
  private var lastStart: Double?

  /// A client over `transport` with `policy`, waiting on `clock`.
  package init(transport: any HTTPTransport, policy: Policy = Policy(), clock: any FetchClock = SystemClock())
  {
    self.transport = transport
    self.policy = policy
    self.clock = clock
  }

  /// Sends `request` (with `Authorization: Bearer …` from `tokens` when given) and returns the first
  /// response that is not worth retrying — any status, 401 and 403 included, after one retry of a 401
  /// with a new token. Throws ``FetchError`` (unavailable) when the retries run out on 429/5xx or on
  /// transport failures, and (data error) for a body over the limit.
  package func send(_ request: HTTPRequest, tokens: (any BearerTokens)? = nil) throws(FetchError)
    -> HTTPResponse
  {
    var request = request
    if let tokens { request.setHeader("Authorization", "Bearer \(try tokens.token(renew: false))") }
    var response = try sendRetrying(request)
    if response.status == 401, let tokens {
      request.setHeader("Authorization", "Bearer \(try tokens.token(renew: true))")
      response = try sendRetrying(request)
    }
    return response
  }

  /// Throws unless `response` has one of the `accepting` statuses: 401/403 as ``FailureKind/noPermission``,
  /// anything else as ``FailureKind/dataError``, naming the request and the status.
  package func require(_ response: HTTPResponse, for request: HTTPRequest, accepting: Set<Int> = [200])
    throws(FetchError)
  {
    guard !accepting.contains(response.status) else { return }
    let excerpt = response.excerpt.isEmpty ? "" : ": \(response.excerpt)"
    if response.status == 401 || response.status == 403 {
      throw FetchError(
        .noPermission,
        "\(request.label): HTTP \(response.status) — the key was refused (check its id, issuer and permissions)"
          + excerpt)
    }
    throw FetchError(.dataError, "\(request.label): HTTP \(response.status)\(excerpt)")
  }

  /// The retry loop around one request.
  private func sendRetrying(_ request: HTTPRequest) throws(FetchError) -> HTTPResponse {
    var attempt = 0
    while true {
      pace()
      requestsSent += 1
      let response: HTTPResponse
      do {
        response = try transport.send(request)
      } catch {
        if error.overLimit { throw FetchError(.dataError, "\(request.label): \(error.text)") }
        guard error.retryable, attempt < policy.retries else {
          throw FetchError(.unavailable, "\(request.label): \(error.text) (\(attempt + 1) tries)")
        }
        wait(attempt, retryAfter: nil)
        attempt += 1
        continue
      }
      guard response.isRetryable else { return response }
      guard attempt < policy.retries else {
        let excerpt = response.excerpt.isEmpty ? "" : ": \(response.excerpt)"
        throw FetchError(
          .unavailable, "\(request.label): HTTP \(response.status) after \(attempt + 1) tries\(excerpt)")
      }
      wait(attempt, retryAfter: response.header("Retry-After"))
      attempt += 1
    }
  }

  /// Waits before retry `attempt` (0 first): the larger of the backoff and the server's `Retry-After`.
  private func wait(_ attempt: Int, retryAfter: String?) {
    var seconds = min(policy.maxBackoffSeconds, policy.backoffSeconds * Double(1 << min(attempt, 20)))
    if let retryAfter, let asked = RetryAfter.seconds(retryAfter, now: clock.now()) {
      seconds = max(seconds, min(asked, policy.maxRetryAfterSeconds))
    }
    retriesMade += 1
    clock.sleep(seconds)
  }

  /// Waits until the next request may start under ``Policy/requestsPerSecond``.
  private func pace() {
    let now = clock.now()
    if policy.requestsPerSecond > 0, let lastStart {
      let next = lastStart + 1 / policy.requestsPerSecond
      if next > now {
        clock.sleep(next - now)
        self.lastStart = next
        return
      }
    }
    lastStart = now
  }
}

/// Where a source's bearer tokens come from (Apple's ES256 JWT, Google's OAuth access token): a token
/// kept while it is valid, re-made when `renew` is true (after a 401) or when it is about to expire.
package protocol BearerTokens: AnyObject {
  /// The token to send; a fresh one when `renew`.
  func token(renew: Bool) throws(FetchError) -> String
}
