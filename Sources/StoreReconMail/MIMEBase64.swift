/// Base64 (RFC 2045) for message bodies and encoded words.
package enum MIMEBase64 {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Base64 of `bytes` on one line, padded with `=`.
  package static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i + 3 <= bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out += [
        alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)],
        alphabet[Int(n & 63)],
      ]
      i += 3
    }
    let rest = bytes.count - i
    if rest == 1 {
      let n = UInt32(bytes[i]) << 16
      out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], 0x3D, 0x3D]
    } else if rest == 2 {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
      out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], 0x3D]
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Base64 of `bytes` in lines of at most 76 characters, each ended by CRLF (a body part's content).
  package static func lines(_ bytes: [UInt8]) -> [UInt8] {
    let text = Array(encode(bytes).utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.count + text.count / 76 * 2 + 2)
    var i = 0
    while i < text.count {
      let end = min(i + 76, text.count)
      out += text[i..<end]
      out += [13, 10]
      i = end
    }
    return out
  }
}
