import Foundation

/// Just enough MIME decoding for tests to read what storerecon wrote: header fields (unfolded, RFC 2047
/// words decoded) and quoted-printable bodies.
package enum MIMETestDecoding {
  /// The header block of a message, unfolded, as name → raw value (first occurrence).
  package static func headers(_ message: String) -> [String: String] {
    let head = message.components(separatedBy: "\r\n\r\n").first ?? ""
    let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(
      of: "\r\n\t", with: " ")
    var out: [String: String] = [:]
    for line in unfolded.components(separatedBy: "\r\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = String(line[..<colon])
      let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      if out[name] == nil { out[name] = value }
    }
    return out
  }

  /// A header value with its `=?UTF-8?B?…?=` / `=?UTF-8?Q?…?=` words decoded (adjacent words joined).
  package static func decodeWords(_ value: String) -> String {
    var out = ""
    var previousWasEncoded = false
    for (i, token) in value.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
      if token.hasPrefix("=?"), token.hasSuffix("?="),
        token.dropFirst(2).dropLast(2).split(separator: "?").count == 3
      {
        let parts = token.dropFirst(2).dropLast(2).split(separator: "?", omittingEmptySubsequences: false)
        let bytes: [UInt8]
        if parts[1].uppercased() == "B" {
          bytes = Data(base64Encoded: String(parts[2])).map { [UInt8]($0) } ?? []
        } else {
          bytes = quotedPrintable(String(parts[2]).replacingOccurrences(of: "_", with: " "))
        }
        if i > 0 && !previousWasEncoded { out += " " }
        out += String(decoding: bytes, as: UTF8.self)
        previousWasEncoded = true
      } else {
        if i > 0 { out += " " }
        out += token
        previousWasEncoded = false
      }
    }
    return out
  }

  /// The decoded subject of a message.
  package static func subject(_ message: String) -> String { decodeWords(headers(message)["Subject"] ?? "") }

  /// Decodes quoted-printable: soft breaks removed, `=XX` to bytes, CRLF kept.
  package static func quotedPrintable(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var i = 0
    func hex(_ b: UInt8) -> UInt8? {
      switch b {
      case 0x30...0x39: return b - 0x30
      case 0x41...0x46: return b - 0x37
      default: return nil
      }
    }
    while i < bytes.count {
      if bytes[i] == 0x3D {
        if i + 2 < bytes.count && bytes[i + 1] == 13 && bytes[i + 2] == 10 {
          i += 3
          continue
        }
        if i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
          out.append(h << 4 | l)
          i += 3
          continue
        }
      }
      out.append(bytes[i])
      i += 1
    }
    return out
  }
}
