import Synchronization
import Testing
import StoreReconFetch
import StoreReconSettings

@Suite struct HTTPClientTests {
  let request = HTTPRequest(url: "https://api.example.com/inApps/v2/history/1000?revision=secret-rev")

  func client(_ answers: [ScriptedTransport.Answer], retries: Int = 3) -> (
    HTTPClient, ScriptedTransport, RecordingClock
  ) {
    let transport = ScriptedTransport(answers)
    let clock = RecordingClock()
    var policy = HTTPClient.Policy()
    policy.retries = retries
    policy.requestsPerSecond = 0
    return (HTTPClient(transport: transport, policy: policy, clock: clock), transport, clock)
  }

  @Test func retriesA429HonouringRetryAfterSeconds() throws {
    let (http, transport, clock) = client([
      .response(HTTPResponse(status: 429, headers: [("Retry-After", "7")])),
      .response(HTTPResponse(status: 200, body: Array("{}".utf8))),
    ])
    let response = try http.send(request)
    #expect(response.status == 200)
    #expect(transport.requests.count == 2)
    #expect(clock.sleeps == [7])
  }

  @Test func backsOffExponentiallyOn5xxAndTransportFailures() throws {
    let (http, _, clock) = client([
      .response(HTTPResponse(status: 503)),
      .failure(TransportFailure("Connection refused", retryable: true)),
      .response(HTTPResponse(status: 500)),
      .response(HTTPResponse(status: 200)),
    ])
    #expect(try http.send(request).status == 200)
    #expect(clock.sleeps == [1, 2, 4])
  }

  @Test func retryAfterAsAnHTTPDateCountsFromNow() throws {
    let (http, _, clock) = client([
      .response(HTTPResponse(status: 503, headers: [("retry-after", "Mon, 01 Dec 2025 00:00:30 GMT")])),
      .response(HTTPResponse(status: 200)),
    ])
    clock.time = 1_764_547_200  // 2025-12-01T00:00:00Z
    _ = try http.send(request)
    #expect(clock.sleeps == [30])
  }

  @Test func givesUpAfterTheRetriesAsUnavailableNamingTheRequestWithoutItsQuery() {
    let (http, transport, _) = client(
      Array(repeating: .response(HTTPResponse(status: 502, body: Array("<html><body>bad".utf8))), count: 5),
      retries: 2)
    #expect {
      try http.send(request)
    } throws: { error in
      guard let error = error as? FetchError else { return false }
      return error.kind == .unavailable && error.message.contains("GET /inApps/v2/history/1000")
        && !error.message.contains("secret-rev") && error.message.contains("an HTML page")
    }
    #expect(transport.requests.count == 3)
  }

  @Test func aCertificateFailureIsNotRetried() {
    let (http, transport, _) = client([
      .failure(TransportFailure("SSL certificate problem", retryable: false))
    ])
    #expect(throws: FetchError.self) { try http.send(request) }
    #expect(transport.requests.count == 1)
  }

  @Test func a401MakesANewTokenOnceAndResends() throws {
    let tokens = CountingTokens()
    let (http, transport, _) = client([
      .response(HTTPResponse(status: 401)), .response(HTTPResponse(status: 200)),
    ])
    #expect(try http.send(request, tokens: tokens).status == 200)
    #expect(
      transport.requests.map { $0.headers.first { $0.name == "Authorization" }?.value } == [
        "Bearer token-1", "Bearer token-2",
      ])
    let (again, _, _) = client([.response(HTTPResponse(status: 401)), .response(HTTPResponse(status: 401))])
    let response = try again.send(request, tokens: tokens)
    #expect(response.status == 401)
    #expect {
      try again.require(response, for: request)
    } throws: { ($0 as? FetchError)?.kind == .noPermission }
  }

  @Test func pacesRequestsToTheRate() throws {
    let transport = ScriptedTransport([
      .response(HTTPResponse(status: 200)), .response(HTTPResponse(status: 200)),
    ])
    let clock = RecordingClock()
    var policy = HTTPClient.Policy()
    policy.requestsPerSecond = 4
    let http = HTTPClient(transport: transport, policy: policy, clock: clock)
    _ = try http.send(request)
    _ = try http.send(request)
    #expect(clock.sleeps.count == 1)
    #expect(abs((clock.sleeps.first ?? 0) - 0.25 * (1 + HTTPClient.paceMargin)) < 1e-6)
  }

  @Test func labelsAreMethodAndPathOnly() {
    #expect(request.label == "GET /inApps/v2/history/1000")
    #expect(HTTPRequest(method: "POST", url: "https://h.example").label == "POST /")
  }

  @Test func retryAfterForms() {
    #expect(RetryAfter.seconds("120", now: 0) == 120)
    #expect(RetryAfter.seconds("Thu, 01 Jan 1970 00:01:00 GMT", now: 30) == 30)
    #expect(RetryAfter.seconds("Thu, 01 Jan 1970 00:01:00 GMT", now: 90) == 0)
    #expect(RetryAfter.seconds("soon", now: 0) == nil)
    #expect(RetryAfter.seconds("Thu, 31 Feb 1970 00:01:00 GMT", now: 0) == nil)
  }
}

/// The client shared by several threads: one pace for all, a 429 pausing everyone, Apple's Retry-After.
@Suite struct HTTPClientConcurrencyTests {
  let request = HTTPRequest(url: "https://api.example.com/inApps/v2/history/1000")

  @Test func appleRetryAfterIsAUnixTimeInMilliseconds() {
    #expect(RetryAfter.seconds("1764547207000", now: 1_764_547_200) == 7)
    #expect(RetryAfter.seconds("1764547100000", now: 1_764_547_200) == 0)
    #expect(RetryAfter.seconds("120", now: 1_764_547_200) == 120)
  }

  @Test func a429PausesTheNextRequestOfAnyCallerToo() throws {
    let transport = ScriptedTransport([
      .response(HTTPResponse(status: 429, headers: [("Retry-After", "7")])),
      .response(HTTPResponse(status: 200)), .response(HTTPResponse(status: 200)),
    ])
    let clock = RecordingClock()
    var policy = HTTPClient.Policy()
    policy.requestsPerSecond = 0
    let http = HTTPClient(transport: transport, policy: policy, clock: clock)
    let start = clock.time
    _ = try http.send(request)
    #expect(clock.time - start == 7, "the retry waited the 7 seconds")
    #expect(http.retriesMade == 1 && http.requestsSent == 2)
  }

  @Test func concurrentSendsKeepTheSpacingAndComeBackInOrder() throws {
    let count = 40
    let clock = RecordingClock()
    var policy = HTTPClient.Policy()
    policy.requestsPerSecond = 20
    policy.concurrency = 6
    let transport = CountingTransport()
    let http = HTTPClient(transport: transport, policy: policy, clock: clock)
    let start = clock.time
    let results = http.concurrently(count) { (index) throws(FetchError) -> Int in
      _ = try http.send(HTTPRequest(url: "https://api.example.com/\(index)"))
      return index
    }
    #expect(results.map { (try? $0?.get()) ?? -1 } == Array(0..<count))
    #expect(transport.count.withLock { $0 } == count && http.requestsSent == count)
    // The clock moves only by the pacing's waits: 39 gaps of the spacing, none shorter, none skipped.
    let spacing = (1 + HTTPClient.paceMargin) / 20
    #expect(abs((clock.time - start) - Double(count - 1) * spacing) < 1e-4)
    #expect(clock.sleeps.allSatisfy { abs($0 - spacing) < 1e-6 })
  }

  @Test func afterAFailureNoNewIndexStarts() {
    var policy = HTTPClient.Policy()
    policy.concurrency = 1
    let http = HTTPClient(transport: ScriptedTransport([]), policy: policy, clock: RecordingClock())
    let results = http.concurrently(5) { (index) throws(FetchError) -> Int in
      if index == 2 { throw FetchError(.dataError, "item 2") }
      return index
    }
    #expect(results.count == 5)
    #expect((try? results[1]?.get()) == 1)
    #expect(results[3] == nil && results[4] == nil)
    if case .failure(let error)? = results[2] { #expect(error.message == "item 2") } else { Issue.record() }
  }
}

/// A transport that answers 200 and counts the requests (from several threads).
final class CountingTransport: HTTPTransport, @unchecked Sendable {
  let count = Mutex(0)
  func send(_ request: HTTPRequest) throws(TransportFailure) -> HTTPResponse {
    count.withLock { $0 += 1 }
    return HTTPResponse(status: 200)
  }
}
