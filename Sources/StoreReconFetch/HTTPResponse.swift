/// One HTTP response: status, header fields and the whole body.
package struct HTTPResponse: Sendable {
  /// The status code (200, 404, …).
  package var status: Int
  /// Header fields in order, names as the server wrote them.
  package var headers: [(name: String, value: String)]
  /// The body bytes.
  package var body: [UInt8]

  /// Creates a response.
  package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the first header `name` (ignoring case), if any.
  package func header(_ name: String) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
  }

  /// Whether the status is 2xx.
  package var isSuccess: Bool { (200..<300).contains(status) }

  /// Whether the request is worth sending again: 429 (rate limited), 5xx (the server's trouble) or 408.
  package var isRetryable: Bool { status == 429 || status == 408 || (500..<600).contains(status) }

  /// The body as text (invalid UTF-8 repaired), for short error excerpts.
  package var text: String { String(decoding: body, as: UTF8.self) }

  /// The first line of the body, at most 120 characters, for an error message (an HTML page is named as
  /// such rather than quoted).
  package var excerpt: String {
    let type = header("Content-Type")?.lowercased() ?? ""
    let start = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
    if type.contains("html") || start.lowercased().hasPrefix("<!doctype html") || start.hasPrefix("<html") {
      return "an HTML page"
    }
    let line = start.prefix { $0 != "\n" && $0 != "\r" }
    return line.count > 120 ? String(line.prefix(120)) + "…" : String(line)
  }
}
