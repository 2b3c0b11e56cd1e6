package import StoreReconSettings
import StoreReconPlatform

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
package final class HTTPClient: @unchecked Sendable {
  /// How requests are retried and paced.
  package struct Policy: Sendable {
    /// Tries after the first for a retryable answer or failure (`fetch.retries`, 3 by default).
    package var retries = 3
    /// The first backoff wait in seconds; each further one doubles, up to ``maxBackoffSeconds``.
    package var backoffSeconds = 1.0
    package var maxBackoffSeconds = 60.0
    /// The longest `Retry-After` honoured; a longer one is cut to it.
    package var maxRetryAfterSeconds = 300.0
    /// At most this many requests start per second (`fetch.requestsPerSecond`, or the source's
    /// default); 0 for no bound. ``HTTPClient/requestsPerSecond`` changes it between sources.
    package var requestsPerSecond = 10.0
    /// How many requests ``HTTPClient/concurrently(_:_:)`` keeps in flight (`fetch.concurrency`, 8).
    package var concurrency = 1

    /// The default policy.
    package init() {}
  }

  /// The margin the pacing keeps: requests start `(1 + margin) / requestsPerSecond` seconds apart, so
  /// that any `requestsPerSecond + 1` of them span more than a second by 100 ms: a server that sees each
  /// one some milliseconds after it left (more for a new connection's handshake, or a busy machine) still
  /// counts at most `requestsPerSecond` in any second of its clock. It costs a tenth of the rate.
  package static let paceMargin = 0.1

  /// The transport (libcurl in a fetch).
  package let transport: any HTTPTransport
  package let policy: Policy
  package let clock: any FetchClock
  private let counts = Lock()
  private let pacing = Lock()
  private var sent = 0
  private var retried = 0
  private var rate: Double
  private var lastStart: Double?
  /// No request starts before this time (seconds since 1970): set by a 429's wait, for every thread.
  private var notBefore = -Double.infinity

  /// A client over `transport` with `policy`, waiting on `clock`.
  package init(transport: any HTTPTransport, policy: Policy = Policy(), clock: any FetchClock = SystemClock())
  {
    self.transport = transport
    self.policy = policy
    self.clock = clock
    self.rate = policy.requestsPerSecond
  }

  /// Requests sent so far (every try counts).
  package var requestsSent: Int { counts.locked { sent } }
  /// Waits for a retry so far (backoff and `Retry-After`).
  package var retriesMade: Int { counts.locked { retried } }

  /// The bound on requests started per second (0: none); a fetch sets each source's before it runs.
  package var requestsPerSecond: Double {
    get { pacing.locked { rate } }
    set { pacing.locked { rate = newValue } }
  }

  /// Sends `request` (with `Authorization: Bearer …` from `tokens` when given) and returns the first
  /// response that is not worth retrying — any status, 401 and 403 included, after one retry of a 401
  /// with a new token. Throws ``FetchError`` (unavailable) when the retries run out on 429/5xx or on
  /// transport failures, and (data error) for a body over the limit. Safe to call from several threads
  /// at once (``concurrently(_:_:)``): they share the pacing and the counts.
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

  /// Runs `work` for the indices `0..<count` with up to ``Policy/concurrency`` of them at once, each on
  /// its own thread and its own connection, every request paced by the one rate; returns the results in
  /// index order. After a `work` throws, no index not yet started is started; the indices before the
  /// first failure come back as `.success`, and the first failure in index order is the one to report.
  /// `work` must touch nothing but its own values and this client (results are merged by the caller, in
  /// index order, so the outcome is the same as a loop's).
  package func concurrently<T>(_ count: Int, _ work: (Int) throws(FetchError) -> T) -> [Result<
    T, FetchError
  >?] {
    Workers.run(count: count, threads: policy.concurrency) { index in
      Result { () throws(FetchError) -> T in try work(index) }
    }
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
      counts.locked { sent += 1 }
      let response: HTTPResponse
      do {
        response = try transport.send(request)
      } catch {
        if error.overLimit { throw FetchError(.dataError, "\(request.label): \(error.text)") }
        guard error.retryable, attempt < policy.retries else {
          throw FetchError(.unavailable, "\(request.label): \(error.text) (\(attempt + 1) tries)")
        }
        wait(attempt, retryAfter: nil, everyone: false)
        attempt += 1
        continue
      }
      guard response.isRetryable else { return response }
      guard attempt < policy.retries else {
        let excerpt = response.excerpt.isEmpty ? "" : ": \(response.excerpt)"
        throw FetchError(
          .unavailable, "\(request.label): HTTP \(response.status) after \(attempt + 1) tries\(excerpt)")
      }
      wait(attempt, retryAfter: response.header("Retry-After"), everyone: response.status == 429)
      attempt += 1
    }
  }

  /// Waits before retry `attempt` (0 first): the larger of the backoff and the server's `Retry-After`.
  /// After a 429 (`everyone`) no request of any thread starts before the wait is over: the server said
  /// the rate is too high, not that this one request failed.
  private func wait(_ attempt: Int, retryAfter: String?, everyone: Bool) {
    var seconds = min(policy.maxBackoffSeconds, policy.backoffSeconds * Double(1 << min(attempt, 20)))
    if let retryAfter, let asked = RetryAfter.seconds(retryAfter, now: clock.now()) {
      seconds = max(seconds, min(asked, policy.maxRetryAfterSeconds))
    }
    counts.locked { retried += 1 }
    if everyone {
      let until = clock.now() + seconds
      pacing.locked { notBefore = max(notBefore, until) }
    } else {
      clock.sleep(seconds)
    }
  }

  /// Waits until the next request may start: ``paceMargin`` over `1 / requestsPerSecond` after the
  /// previous start, and not before a 429's wait is over. One thread at a time waits here (the others
  /// queue on the lock), and each start is stamped after its wait, so the starts are apart by at least
  /// the spacing whatever the threads do.
  private func pace() {
    pacing.locked {
      var earliest = notBefore
      if rate > 0, let lastStart { earliest = max(earliest, lastStart + (1 + HTTPClient.paceMargin) / rate) }
      let now = clock.now()
      if earliest > now { clock.sleep(earliest - now) }
      lastStart = max(clock.now(), earliest)
    }
  }
}

/// Where a source's bearer tokens come from (Apple's ES256 JWT, Google's OAuth access token): a token
/// kept while it is valid, re-made when `renew` is true (after a 401) or when it is about to expire.
package protocol BearerTokens: AnyObject {
  /// The token to send; a fresh one when `renew`.
  func token(renew: Bool) throws(FetchError) -> String
}
