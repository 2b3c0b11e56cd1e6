import StoreReconCore
import StoreReconSettings

/// One fetch of the App Store source: its context, its tokens, and its state as it advances (saved after
/// each step through ``FetchContext/state``).
struct AppleRun {
  let context: FetchContext
  let tokens: AppleTokens
  var state: AppleState

  /// Milliseconds since 1970, now.
  var nowMs: Int64 { Int64(context.clock.now() * 1000) }

  /// Saves the state under the source's name.
  func save() throws(FetchError) { try context.state.save(state, for: "apple") }

  /// `GET base + path` (query items percent-encoded) with the Server API's token, checked for `accepting`.
  func get(
    _ path: String, query: [(String, String)], base: String, tokens: AppleTokens, accepting: Set<Int> = [200]
  )
    throws(FetchError) -> (HTTPRequest, HTTPResponse)
  {
    let request = HTTPRequest(url: base + path + AppleRun.queryString(query))
    let response = try context.http.send(request, tokens: tokens)
    try context.http.require(response, for: request, accepting: accepting)
    return (request, response)
  }

  /// `?a=b&c=d`, percent-encoded (empty without items).
  static func queryString(_ items: [(String, String)]) -> String {
    guard !items.isEmpty else { return "" }
    return "?" + items.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
  }

  /// `text` with every byte but unreserved characters (RFC 3986 §2.3) percent-encoded.
  static func percentEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if c.isASCII && (c.isLetter || c.isNumber || "-._~".contains(c)) {
        out.append(c)
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }
}
