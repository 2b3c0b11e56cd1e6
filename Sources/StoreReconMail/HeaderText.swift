/// Header field text: RFC 2047 encoded words for non-ASCII text, folding of long lines (RFC 5322 §2.2.3).
package enum HeaderText {
  /// Bytes of UTF-8 per encoded word: 36 bytes are 48 base64 characters, so `=?UTF-8?B?…?=` stays within
  /// 60 characters and a folded line within 78.
  static let wordBytes = 36

  /// Whether `text` can go into a header as it is: printable ASCII and spaces, no encoded-word look-alike.
  static func isPlain(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && !text.contains("=?")
  }

  /// A complete header field `Name: value` with CRLF line ends, folded so no line exceeds 78 characters
  /// where spaces allow; non-ASCII text becomes encoded words (`=?UTF-8?B?…?=`).
  package static func field(_ name: String, _ value: String) -> String {
    if isPlain(value) { return fold(name + ": " + value) }
    return name + ": " + encodedWords(value).joined(separator: "\r\n ") + "\r\n"
  }

  /// Folds a plain ASCII field at spaces before column 78; ends with CRLF.
  static func fold(_ line: String) -> String {
    guard line.utf8.count > 78 else { return line + "\r\n" }
    var out: [String] = []
    var current = ""
    for word in line.split(separator: " ", omittingEmptySubsequences: false) {
      if current.isEmpty {
        current = String(word)
      } else if current.utf8.count + 1 + word.utf8.count > 78 {
        out.append(current)
        current = " " + word
      } else {
        current += " " + word
      }
    }
    out.append(current)
    return out.joined(separator: "\r\n") + "\r\n"
  }

  /// `text` as RFC 2047 `B` encoded words, never splitting a character.
  package static func encodedWords(_ text: String) -> [String] {
    var words: [String] = []
    var chunk: [UInt8] = []
    for scalar in text.unicodeScalars {
      let bytes = Array(String(scalar).utf8)
      if chunk.count + bytes.count > wordBytes {
        words.append("=?UTF-8?B?" + MIMEBase64.encode(chunk) + "?=")
        chunk = []
      }
      chunk += bytes
    }
    if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?" + MIMEBase64.encode(chunk) + "?=") }
    return words
  }

  /// A display name: as it is when it is plain atoms, quoted when it has specials, encoded when not ASCII.
  static func phrase(_ text: String) -> String {
    guard isPlain(text) else { return encodedWords(text).joined(separator: " ") }
    let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ".utf8)
    if text.utf8.allSatisfy({ atext.contains($0) }) { return text }
    return "\"" + text + "\""
  }

  /// A MIME parameter `name="value"`, or RFC 2231 `name*=UTF-8''percent-encoded` when the value is not plain.
  package static func parameter(_ name: String, _ value: String) -> String {
    if isPlain(value) && !value.contains("\"") && !value.contains("\\") { return "\(name)=\"\(value)\"" }
    let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
    let hex = Array("0123456789ABCDEF".utf8)
    var out = "\(name)*=UTF-8''"
    for b in value.utf8 {
      if unreserved.contains(b) {
        out.unicodeScalars.append(Unicode.Scalar(b))
      } else {
        out += "%" + String(decoding: [hex[Int(b >> 4)], hex[Int(b & 15)]], as: UTF8.self)
      }
    }
    return out
  }
}
