import StoreReconPlatform

/// What sends one request and returns the response, whatever its status: libcurl in a fetch
/// (``CurlTransport``), a scripted list of answers in a test. ``HTTPClient`` adds retries around it.
package protocol HTTPTransport: AnyObject {
  /// Sends `request` once.
  func send(_ request: HTTPRequest) throws(TransportFailure) -> HTTPResponse
}

/// A request that got no HTTP response (refused connection, timeout, certificate, truncated or oversized
/// body): libcurl's text, and whether sending again may help.
package struct TransportFailure: Error, Sendable {
  /// libcurl's text (never holds the URL's query or a header).
  package var text: String
  /// Whether a retry may help (a refused connection may; an unverifiable certificate does not).
  package var retryable: Bool
  /// The body was larger than the client's limit.
  package var overLimit: Bool

  /// Creates a failure.
  package init(_ text: String, retryable: Bool, overLimit: Bool = false) {
    self.text = text
    self.retryable = retryable
    self.overLimit = overLimit
  }
}

/// HTTPS through libcurl: certificate verification always on (against `caFile` when given, else the
/// system's authorities), https only, no redirects followed, connections kept open between requests.
/// Requests sent from several threads at once each get a handle of their own (and so a connection of
/// their own); a handle goes back to the pool after its request, so N threads use N handles.
package final class CurlTransport: HTTPTransport, @unchecked Sendable {
  private let options: HTTPTransfer.Options
  private let lock = Lock()
  private var idle: [HTTPTransfer] = []

  /// A transport trusting `caFile` (PEM) or the system's authorities, with these timeouts (seconds) and
  /// body limit (bytes).
  package init(caFile: String?, connectTimeoutSeconds: Int, totalTimeoutSeconds: Int, maxBodyBytes: Int) {
    options = HTTPTransfer.Options(
      caFile: caFile, connectTimeoutSeconds: connectTimeoutSeconds, totalTimeoutSeconds: totalTimeoutSeconds,
      maxBodyBytes: maxBodyBytes)
  }

  package func send(_ request: HTTPRequest) throws(TransportFailure) -> HTTPResponse {
    let reused = lock.locked { idle.popLast() }
    guard let transfer = reused ?? HTTPTransfer(options) else {
      throw TransportFailure("libcurl could not start", retryable: false)
    }
    defer { lock.locked { idle.append(transfer) } }
    do {
      return try transfer.perform(request)
    } catch {
      throw TransportFailure(
        error.text, retryable: error.retryable, overLimit: error.text.hasPrefix("the body is larger"))
    }
  }
}
