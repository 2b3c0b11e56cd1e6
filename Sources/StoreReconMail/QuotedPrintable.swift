/// Quoted-printable (RFC 2045 §6.7) for the text and HTML parts: readable where the text is ASCII,
/// exact for every UTF-8 byte.
package enum QuotedPrintable {
  /// Encodes UTF-8 text. Line breaks (LF or CRLF) become CRLF hard breaks; lines longer than 76
  /// characters get soft breaks (`=` CRLF). `=`, control bytes, bytes above 127, a space or tab before a
  /// line break, and a `.` starting a line are written as `=XX`.
  package static func encode(_ text: String) -> [UInt8] {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    var lineLength = 0
    func escaped(_ b: UInt8) -> [UInt8] { [0x3D, hex[Int(b >> 4)], hex[Int(b & 15)]] }
    func emit(_ token: [UInt8]) {
      var token = token
      if lineLength + token.count > 75 {
        out += [0x3D, 13, 10]
        lineLength = 0
      }
      // A line starting with "." can be mistaken for SMTP's end of data by a careless relay.
      if lineLength == 0 && token == [0x2E] { token = escaped(0x2E) }
      out += token
      lineLength += token.count
    }
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 10 || (b == 13 && i + 1 < bytes.count && bytes[i + 1] == 10) {
        out += [13, 10]
        lineLength = 0
        i += b == 13 ? 2 : 1
        continue
      }
      let next = i + 1 < bytes.count ? bytes[i + 1] : 10
      let beforeBreak = next == 10 || next == 13
      let literal = (b >= 33 && b <= 126 && b != 0x3D) || ((b == 0x20 || b == 0x09) && !beforeBreak)
      emit(literal ? [b] : escaped(b))
      i += 1
    }
    return out
  }
}
