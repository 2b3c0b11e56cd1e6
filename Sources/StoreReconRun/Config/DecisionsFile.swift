import Foundation
package import StoreReconCore
import StoreReconPlatform

/// `decisions.csv`: the decisions finance made about cases, one per line under the header
/// `key,decision,reason,by,until,max_amount_minor` (docs/cases.md#decisionscsv). A file finance edits
/// and reviews; `storerecon settle` appends to it.
package enum DecisionsFile {
  /// The decisions of the file at `path`, in file order; none where the file does not exist. A line that
  /// is not a decision is an error naming the file and the line (exit 78): a run never guesses what a
  /// person decided.
  package static func read(_ path: String) throws(RunError) -> [CaseDecision] {
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RunError(.missingInput, "decisions \(path): cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw RunError(.config, "decisions \(path): not UTF-8 text")
    }
    let records = parse(text)
    guard let header = records.first else { return [] }
    let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard names == CaseDecision.header else {
      throw RunError(
        .config,
        "decisions \(path) line 1: the header must be \(CaseDecision.header.joined(separator: ",")), found \(header.fields.joined(separator: ","))"
      )
    }
    var out: [CaseDecision] = []
    for record in records.dropFirst() {
      if record.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
      switch CaseDecision.parse(record.fields, line: record.line) {
      case .success(let decision): out.append(decision)
      case .failure(let error): throw RunError(.config, "decisions \(path) \(error)")
      }
    }
    return out
  }

  /// Appends `decisions` to the file at `path` (writing the header first where the file is new or
  /// empty), written whole to a temporary file and renamed over the old one.
  package static func append(_ decisions: [CaseDecision], to path: String) throws(RunError) {
    var text = ""
    if let data = FileManager.default.contents(atPath: path), let old = String(data: data, encoding: .utf8) {
      text = old
    }
    if text.isEmpty { text = CaseDecision.header.joined(separator: ",") + "\n" }
    if !text.hasSuffix("\n") { text += "\n" }
    for decision in decisions { text += decision.fields.map(quoted).joined(separator: ",") + "\n" }
    do {
      try DurableFile.write(text, to: path, mode: nil)
    } catch {
      throw RunError(.ioError, "decisions \(path): cannot be written: \(error.reason)")
    }
  }

  /// A field as CSV writes it: quoted (with `"` doubled) where it holds a comma, a quote or a line break.
  static func quoted(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// One record of the file: its fields and the line it starts on (1 = the header).
  struct Record {
    var fields: [String]
    var line: Int
  }

  /// The records of CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks;
  /// CRLF or LF line ends).
  static func parse(_ text: String) -> [Record] {
    var records: [Record] = []
    var fields: [String] = []
    var field = ""
    var quoted = false
    var line = 1
    var start = 1
    var pending = false
    var characters = Array(text)
    if characters.first == "\u{FEFF}" { characters.removeFirst() }
    var i = 0
    while i < characters.count {
      let c = characters[i]
      if quoted {
        if c == "\"" {
          if i + 1 < characters.count && characters[i + 1] == "\"" {
            field.append("\"")
            i += 1
          } else {
            quoted = false
          }
        } else {
          if c == "\n" || c == "\r\n" { line += 1 }
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
        pending = true
      } else if c == "," {
        fields.append(field)
        field = ""
        pending = true
      } else if c == "\n" || c == "\r\n" || c == "\r" {
        fields.append(field)
        records.append(Record(fields: fields, line: start))
        fields = []
        field = ""
        pending = false
        line += 1
        start = line
      } else {
        field.append(c)
        pending = true
      }
      i += 1
    }
    if pending || !field.isEmpty || !fields.isEmpty {
      fields.append(field)
      records.append(Record(fields: fields, line: start))
    }
    return records
  }
}
