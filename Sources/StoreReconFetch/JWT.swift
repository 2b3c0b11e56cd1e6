import Foundation

/// Compact JSON Web Tokens (RFC 7519) as the stores' APIs take them: `base64url(header).base64url(claims)`
/// signed by a function the caller gives (ES256 for Apple, RS256 for Google), with the signature
/// base64url-encoded after a third dot.
package enum JWT {
  /// The token of `header` and `claims` (JSON object texts) signed by `sign`; `nil` when signing fails.
  package static func make(header: String, claims: String, sign: ([UInt8]) -> [UInt8]?) -> String? {
    let input = base64URL(Array(header.utf8)) + "." + base64URL(Array(claims.utf8))
    guard let signature = sign(Array(input.utf8)) else { return nil }
    return input + "." + base64URL(signature)
  }

  /// Base64url without padding (RFC 7515 §2).
  package static func base64URL(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
  }
}
