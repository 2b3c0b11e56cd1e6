/// Text made safe to print on one line of a terminal or a log: every control character (C0, DEL and
/// C1) is shown as `\xHH`, so a config value holding an escape sequence is seen, not obeyed
/// (docs/config.md#exit-codes).
package enum VisibleText {
  /// `text` with each control character as `\xHH` (lower-case hex): `"\u{1B}[31m"` → `\x1b[31m`.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        let hex = String(scalar.value, radix: 16)
        out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `scalar` is a C0 control, DEL or a C1 control.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
  }
}
