/// JSON texts written by hand, members in the order given (so a file rewritten from the same data has
/// the same bytes): JWT headers and claims, `notifications.jsonl` lines.
package enum JSONText {
  /// `value` as a JSON string literal (quotes, backslashes and control characters escaped).
  package static func quoted(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out +=
            "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
            + String(scalar.value, radix: 16)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A JSON object text of string and integer members, in the order given.
  package static func object(_ members: [(String, Member)]) -> String {
    "{" + members.map { "\(quoted($0.0)):\($0.1.json)" }.joined(separator: ",") + "}"
  }

  /// A member value of ``object(_:)``.
  package enum Member {
    case string(String)
    case integer(Int64)
    /// A JSON text put in as it is (an array or object written elsewhere).
    case raw(String)

    var json: String {
      switch self {
      case .string(let text): return JSONText.quoted(text)
      case .integer(let n): return String(n)
      case .raw(let text): return text
      }
    }
  }
}
