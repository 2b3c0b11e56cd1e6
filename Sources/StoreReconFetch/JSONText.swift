import Foundation

/// JSON texts written by hand, members in the order given (so a file rewritten from the same data has
/// the same bytes): JWT headers and claims, `notifications.jsonl` lines.
package enum JSONText {
  /// `value` as a JSON string literal (Foundation's encoder: quotes, backslashes and control characters
  /// escaped, `/` left as it is).
  package static func quoted(_ value: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "\"\"" }
    return String(decoding: data, as: UTF8.self)
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
