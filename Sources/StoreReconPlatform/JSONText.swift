/// The project's one JSON writer, deterministic: members keep the order they were added, so the same data
/// gives the same bytes. Pretty-printed for the manifest (``rendered()``), on one line for JWT headers and
/// claims and the fetched `notifications.jsonl` lines (``compact()``).
package indirect enum JSONText: Sendable {
  case string(String)
  case int(Int64)
  case bool(Bool)
  case null
  case array([JSONText])
  case object([(String, JSONText)])

  /// Pretty-printed with two-space indentation and a final newline.
  package func rendered() -> String {
    var out = ""
    render(into: &out, indent: 0)
    out += "\n"
    return out
  }

  /// On one line, without spaces: `{"a":1,"b":["c"]}`.
  package func compact() -> String {
    switch self {
    case .string(let s): JSONText.quote(s)
    case .int(let i): String(i)
    case .bool(let b): b ? "true" : "false"
    case .null: "null"
    case .array(let items): "[" + items.map { $0.compact() }.joined(separator: ",") + "]"
    case .object(let fields):
      "{" + fields.map { JSONText.quote($0.0) + ":" + $0.1.compact() }.joined(separator: ",") + "}"
    }
  }

  private func render(into out: inout String, indent: Int) {
    let pad = String(repeating: "  ", count: indent + 1)
    let closePad = String(repeating: "  ", count: indent)
    switch self {
    case .string(let s): out += JSONText.quote(s)
    case .int(let i): out += String(i)
    case .bool(let b): out += b ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad
        item.render(into: &out, indent: indent + 1)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += closePad + "]"
    case .object(let fields):
      if fields.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (i, (key, value)) in fields.enumerated() {
        out += pad + JSONText.quote(key) + ": "
        value.render(into: &out, indent: indent + 1)
        out += i + 1 < fields.count ? ",\n" : "\n"
      }
      out += closePad + "}"
    }
  }

  /// A JSON string literal.
  package static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
