/// One sentence a person understands for a TLS failure libcurl words as OpenSSL's internals
/// (`OpenSSL/3.0.13: error:06880006:asn1 encoding routines::EVP lib`): what failed and what to check,
/// keyed by libcurl's code. Used by the e-mail and the fetch adapters (docs/email.md, docs/fetch.md).
package enum TLSFailureText {
  /// The sentence for libcurl's `code` and error text `detail`, or `nil` when `detail` holds no OpenSSL
  /// internals (libcurl's own words are then clear enough). `caSetting` names the config key of the
  /// trusted certificates (`mail.caFile`), `caFile` its value when set.
  package static func sentence(code: Int, detail: String, caSetting: String, caFile: String?) -> String? {
    guard showsInternals(detail) else { return nil }
    let trusted =
      caFile.map { "the certificates in \(caSetting) \($0)" } ?? "the system's certificate authorities"
    switch code {
    case 35:
      return "the secure (TLS) connection could not be set up: the server's certificate, or one of "
        + "\(trusted), could not be read or was refused; check that \(caSetting) holds the PEM "
        + "certificate of the authority that signed the server's certificate, and the server's TLS setup"
    case 60, 83, 90, 91:
      return "the server's certificate could not be verified against \(trusted): check \(caSetting) "
        + "and the server's certificate"
    case 58, 59, 53, 54, 66:
      return "this machine's TLS setup could not be used (a certificate, key or cipher libcurl was given "
        + "is not usable)"
    case 77, 82:
      return "\(caSetting) could not be read as PEM certificates: give the file of the certificate "
        + "authority, in PEM"
    case 55, 56:
      return "the secure (TLS) connection broke off during the exchange with the server: check the "
        + "server's TLS setup and the network between"
    default:
      return "the secure (TLS) connection failed (libcurl code \(code)): check \(caSetting) and the "
        + "server's TLS setup"
    }
  }

  /// Whether `detail` carries OpenSSL's internals: a packed error code (`error:0A000086:`), an
  /// `SSL_ERROR_…` name or the library's version banner.
  package static func showsInternals(_ detail: String) -> Bool {
    if detail.contains("SSL_ERROR_") || detail.contains("OpenSSL/") { return true }
    let bytes = Array(detail.utf8)
    let prefix = Array("error:".utf8)
    guard bytes.count >= prefix.count + 9 else { return false }
    var i = 0
    while i + prefix.count + 9 <= bytes.count {
      if Array(bytes[i..<(i + prefix.count)]) == prefix {
        let code = bytes[(i + prefix.count)..<(i + prefix.count + 8)]
        let hex = code.allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66)
        }
        if hex && bytes[i + prefix.count + 8] == 0x3A { return true }
      }
      i += 1
    }
    return false
  }
}
