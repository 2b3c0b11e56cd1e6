/// The text form of keymaps and partials: lines of tab-separated fields, UTF-8, where a field escapes
/// `\` as `\\`, a tab as `\t`, a line feed as `\n` and a carriage return as `\r`; an absent value is
/// the lone field `\-`.
package enum PartialText {
  /// A malformed line of a keymap or partial file.
  package struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number.
    package var line: Int
    package var reason: String

    /// An error at `line`.
    package init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }

    package var description: String { "line \(line): \(reason)" }
  }

  /// The escaped bytes of `text`.
  package static func escaped(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for b in text.utf8 {
      switch b {
      case 0x5C: out += [0x5C, 0x5C]
      case 0x09: out += [0x5C, 0x74]
      case 0x0A: out += [0x5C, 0x6E]
      case 0x0D: out += [0x5C, 0x72]
      default: out.append(b)
      }
    }
    return out
  }

  /// The escaped bytes of an optional text (`\-` for `nil`).
  package static func escaped(_ text: String?) -> [UInt8] {
    guard let text else { return [0x5C, 0x2D] }
    return escaped(text)
  }

  /// A line's fields, unescaped (`nil` for `\-`).
  package static func optionalFields(_ line: ArraySlice<UInt8>, line number: Int) throws(FormatError)
    -> [String?]
  {
    var fields: [String?] = []
    var current: [UInt8] = []
    var absent = false
    var i = line.startIndex
    while i < line.endIndex {
      let b = line[i]
      if b == 0x09 {
        fields.append(absent ? nil : String(decoding: current, as: UTF8.self))
        current.removeAll(keepingCapacity: true)
        absent = false
      } else if b == 0x5C {
        i += 1
        guard i < line.endIndex else {
          throw FormatError(line: number, reason: "a field ends in a lone '\\'")
        }
        switch line[i] {
        case 0x5C: current.append(0x5C)
        case 0x74: current.append(0x09)
        case 0x6E: current.append(0x0A)
        case 0x72: current.append(0x0D)
        case 0x2D where current.isEmpty: absent = true
        default:
          throw FormatError(line: number, reason: "unknown escape '\\\(Character(Unicode.Scalar(line[i])))'")
        }
      } else {
        current.append(b)
      }
      i += 1
    }
    fields.append(absent ? nil : String(decoding: current, as: UTF8.self))
    return fields
  }

  /// A line's fields, unescaped; an absent field (`\-`) is an error.
  package static func fields(_ line: ArraySlice<UInt8>, line number: Int) throws(FormatError) -> [String] {
    let all = try optionalFields(line, line: number)
    var out: [String] = []
    out.reserveCapacity(all.count)
    for (k, f) in all.enumerated() {
      guard let f else { throw FormatError(line: number, reason: "field \(k + 1) is absent") }
      out.append(f)
    }
    return out
  }
}
