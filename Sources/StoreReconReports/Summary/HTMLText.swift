/// Escapes text for HTML element content and quoted attribute values.
package enum HTMLText {
  /// `&`, `<`, `>`, `"` and `'` replaced by entities; everything else unchanged.
  package static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for ch in text.unicodeScalars {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(ch)
      }
    }
    return out
  }
}
