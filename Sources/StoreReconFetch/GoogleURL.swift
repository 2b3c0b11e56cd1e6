import Foundation

/// Pieces of Google API URLs.
enum GoogleURL {
  /// The characters a path segment or query value keeps as they are (RFC 3986 unreserved).
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// `text` percent-encoded for one path segment or one query value (`/` becomes `%2F`).
  static func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }

  /// `base` with the query `items` (values encoded), in the order given.
  static func query(_ base: String, _ items: [(String, String)]) -> String {
    guard !items.isEmpty else { return base }
    return base + "?" + items.map { "\($0.0)=\(segment($0.1))" }.joined(separator: "&")
  }
}
