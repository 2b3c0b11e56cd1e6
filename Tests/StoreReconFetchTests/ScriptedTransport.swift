import StoreReconFetch
import StoreReconSettings

/// A transport that answers from a script, in order, and records every request (no network).
final class ScriptedTransport: HTTPTransport {
  enum Answer {
    case response(HTTPResponse)
    case failure(TransportFailure)
  }

  var answers: [Answer]
  private(set) var requests: [HTTPRequest] = []

  init(_ answers: [Answer]) { self.answers = answers }

  func send(_ request: HTTPRequest) throws(TransportFailure) -> HTTPResponse {
    requests.append(request)
    guard !answers.isEmpty else { return HTTPResponse(status: 599, body: Array("script ran out".utf8)) }
    switch answers.removeFirst() {
    case .response(let response): return response
    case .failure(let failure): throw failure
    }
  }
}

/// Tokens numbered by how often they were made.
final class CountingTokens: BearerTokens {
  private(set) var made = 0
  private var current: String?

  func token(renew: Bool) throws(FetchError) -> String {
    if renew || current == nil {
      made += 1
      current = "token-\(made)"
    }
    return current ?? ""
  }
}
