/// A JSON text under construction for the line variants: object members keep their order and their
/// keys and scalars are kept as written (bytes), so a variant can hold escapes, odd numbers and even
/// invalid text, and be rendered with any spacing.
package indirect enum DraftJSON {
  /// A scalar exactly as written (`"text"`, `12`, `true`, `null`, or anything else).
  case raw([UInt8])
  /// An object: members with their key as written between the quotes.
  case object([(key: [UInt8], value: DraftJSON)])
  /// An array.
  case array([DraftJSON])

  /// A JSON string of plain `text` (quotes and backslashes escaped).
  package static func string(_ text: String) -> DraftJSON {
    .raw(Array(DraftJSON.quoted(text).utf8))
  }

  /// A number or literal as written.
  package static func literal(_ text: String) -> DraftJSON { .raw(Array(text.utf8)) }

  /// An object of plain keys.
  package static func members(_ pairs: [(String, DraftJSON)]) -> DraftJSON {
    .object(pairs.map { (Array($0.0.utf8), $0.1) })
  }

  /// `text` as a JSON string literal, escaping only what must be escaped.
  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// How a rendering spaces its tokens.
  package struct Spacing {
    /// Written after `:`.
    package var afterColon: [UInt8] = []
    /// Written after `,`.
    package var afterComma: [UInt8] = []
    /// Written after `{` / `[` and before `}` / `]`.
    package var inside: [UInt8] = []
    /// Written before `:` and before `,`.
    package var before: [UInt8] = []

    /// No spaces at all (what Apple's and Google's encoders write).
    package static let compact = Spacing()

    /// One of a few spacings other JSON writers use.
    package static func random(_ r: inout VariantRandom) -> Spacing {
      let blanks: [[UInt8]] = [[], [0x20], [0x20, 0x20], [0x09], [0x20, 0x09]]
      switch r.below(5) {
      case 0: return .compact
      case 1: return Spacing(afterColon: [0x20], afterComma: [0x20])
      case 2: return Spacing(afterColon: [0x20], afterComma: [0x20], inside: [0x20])
      case 3: return Spacing(afterColon: [0x20], afterComma: [], inside: [], before: [0x20])
      default:
        return Spacing(
          afterColon: r.pick(blanks), afterComma: r.pick(blanks), inside: r.pick(blanks),
          before: r.pick(blanks))
      }
    }
  }

  /// The bytes of the text with `spacing`.
  package func render(_ spacing: Spacing = .compact) -> [UInt8] {
    var out: [UInt8] = []
    render(spacing, into: &out)
    return out
  }

  private func render(_ s: Spacing, into out: inout [UInt8]) {
    switch self {
    case .raw(let bytes): out += bytes
    case .object(let members):
      out.append(0x7B)
      if !members.isEmpty { out += s.inside }
      for (n, member) in members.enumerated() {
        if n > 0 { out += s.before + [0x2C] + s.afterComma }
        out.append(0x22)
        out += member.key
        out.append(0x22)
        out += s.before + [0x3A] + s.afterColon
        member.value.render(s, into: &out)
      }
      if !members.isEmpty { out += s.inside }
      out.append(0x7D)
    case .array(let elements):
      out.append(0x5B)
      if !elements.isEmpty { out += s.inside }
      for (n, element) in elements.enumerated() {
        if n > 0 { out += s.before + [0x2C] + s.afterComma }
        element.render(s, into: &out)
      }
      if !elements.isEmpty { out += s.inside }
      out.append(0x5D)
    }
  }
}
