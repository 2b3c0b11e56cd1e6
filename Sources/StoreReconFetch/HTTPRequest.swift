/// One HTTP request: method, absolute URL, header fields and body bytes.
package struct HTTPRequest: Sendable, Equatable {
  /// `GET`, `POST`, …
  package var method: String
  /// The absolute URL, query included (`https://host/path?query`).
  package var url: String
  /// Header fields in order (`Authorization`, `Content-Type`, …).
  package var headers: [(name: String, value: String)]
  /// The body sent (empty for a GET).
  package var body: [UInt8]

  /// Creates a request.
  package init(
    method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// The request as errors and logs name it: method and path, without the scheme, host, query string or
  /// fragment (a query may hold a token; headers are never shown). `GET /inApps/v2/history/123`.
  package var label: String { "\(method) \(HTTPRequest.path(of: url))" }

  /// The path of `url` (`/` when it has none), without query or fragment.
  package static func path(of url: String) -> String {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
    guard let slash = rest.firstIndex(of: "/") else { return "/" }
    var path = rest[slash...]
    if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
    return String(path)
  }

  /// Sets the header `name` (replacing one of the same name, ignoring case).
  package mutating func setHeader(_ name: String, _ value: String) {
    headers.removeAll { $0.name.lowercased() == name.lowercased() }
    headers.append((name, value))
  }

  package static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
    a.method == b.method && a.url == b.url && a.body == b.body
      && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
  }
}
