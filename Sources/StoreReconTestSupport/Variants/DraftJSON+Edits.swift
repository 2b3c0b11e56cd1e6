// Edits of a draft: look-ups, member changes, permutations, and the byte-level edits of strings and
// keys the variants are made of.
extension DraftJSON {
  /// The members of an object (empty for anything else).
  package var membersList: [(key: [UInt8], value: DraftJSON)] {
    if case .object(let members) = self { return members }
    return []
  }

  /// The object with `key` set to `value` (replaced in place, or appended; `nil` removes it).
  package func setting(_ key: String, _ value: DraftJSON?) -> DraftJSON {
    guard case .object(var members) = self else { return self }
    let k = Array(key.utf8)
    if let n = members.firstIndex(where: { $0.key == k }) {
      if let value { members[n].value = value } else { members.remove(at: n) }
    } else if let value {
      members.append((k, value))
    }
    return .object(members)
  }

  /// The value of `key` in an object.
  package func member(_ key: String) -> DraftJSON? {
    let k = Array(key.utf8)
    return membersList.first { $0.key == k }?.value
  }

  /// The draft with the members of every object (nested too) in a random order.
  package func permuted(_ r: inout VariantRandom) -> DraftJSON {
    switch self {
    case .raw: return self
    case .object(let members):
      return .object(r.shuffled(members).map { ($0.key, $0.value.permuted(&r)) })
    case .array(let elements): return .array(elements.map { $0.permuted(&r) })
    }
  }

  /// The number of objects in the draft (itself included).
  var objectCount: Int {
    switch self {
    case .raw: return 0
    case .object(let members): return 1 + members.reduce(0) { $0 + $1.value.objectCount }
    case .array(let elements): return elements.reduce(0) { $0 + $1.objectCount }
    }
  }

  /// An edit of one object, with the generator.
  package typealias ObjectEdit = (DraftJSON, inout VariantRandom) -> DraftJSON

  /// The draft with `edit` applied to one random object in it (the top one half the time).
  package func editingRandomObject(_ r: inout VariantRandom, _ edit: ObjectEdit) -> DraftJSON {
    let count = objectCount
    guard count > 0 else { return self }
    var n = r.chance(50) ? 0 : r.below(count)
    return editing(&n, &r, edit)
  }

  private func editing(_ n: inout Int, _ r: inout VariantRandom, _ edit: ObjectEdit) -> DraftJSON {
    switch self {
    case .raw: return self
    case .object(let members):
      if n == 0 {
        n = -1
        return edit(self, &r)
      }
      n -= 1
      var out: [(key: [UInt8], value: DraftJSON)] = []
      for member in members { out.append((member.key, member.value.editing(&n, &r, edit))) }
      return .object(out)
    case .array(let elements):
      var out: [DraftJSON] = []
      for element in elements { out.append(element.editing(&n, &r, edit)) }
      return .array(out)
    }
  }

  /// The object with a member inserted at a random place.
  package func inserting(_ key: [UInt8], _ value: DraftJSON, _ r: inout VariantRandom) -> DraftJSON {
    guard case .object(var members) = self else { return self }
    members.insert((key, value), at: r.below(members.count + 1))
    return .object(members)
  }

  /// The object with one of its string members escaped (``escaping(_:_:)``).
  package func editingString(_ r: inout VariantRandom) -> DraftJSON {
    guard case .object(var members) = self else { return self }
    let strings = members.indices.filter {
      if case .raw(let bytes) = members[$0].value { return bytes.first == 0x22 }
      return false
    }
    guard !strings.isEmpty else { return self }
    let n = strings[r.below(strings.count)]
    if case .raw(let chosen) = members[n].value { members[n].value = .raw(DraftJSON.escaping(chosen, &r)) }
    return .object(members)
  }

  /// A string literal's bytes (with its quotes) with one escape or non-ASCII character put in: some
  /// keep the decoded text (`\u0041` for `A`, `\/` for `/`), others change it.
  package static func escaping(_ literal: [UInt8], _ r: inout VariantRandom) -> [UInt8] {
    guard literal.count >= 2, literal.first == 0x22, literal.last == 0x22 else { return literal }
    var inner = Array(literal[1..<(literal.count - 1)])
    let insertions: [String] = [
      "\\u00e9", "\\u00C9", "\u{e9}", "\\\"", "\\\\", "\\/", "\\ud83d\\ude00", "\u{1F600}", "\\ud800",
      "\\udc00x", "\\n", "\\t", "\\u0000", "e\u{301}", "\u{212A}",
    ]
    switch r.below(4) {
    case 0:
      // The same text: an ASCII letter or digit (or a slash) written as an escape.
      let plain = inner.indices.filter { inner[$0] >= 0x30 && inner[$0] < 0x7F && inner[$0] != 0x5C }
      guard !plain.isEmpty else { break }
      let at = plain[r.below(plain.count)]
      let b = inner[at]
      let hex = Array("0123456789abcdef".utf8)
      let escape: [UInt8] =
        b == 0x2F && r.chance(50)
        ? [0x5C, 0x2F] : [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
      // Only where the byte does not follow a backslash (it would be an escape's letter).
      guard at == 0 || inner[at - 1] != 0x5C else { break }
      inner.replaceSubrange(at...at, with: escape)
    case 1:
      // A raw byte that is not UTF-8.
      inner.insert(r.pick([0xFF, 0xC3, 0x80, 0xED]), at: r.below(inner.count + 1))
    default:
      let at = r.below(inner.count + 1)
      guard at == 0 || inner[at - 1] != 0x5C else { break }
      inner.insert(contentsOf: Array(r.pick(insertions).utf8), at: at)
    }
    return [0x22] + inner + [0x22]
  }

  /// A key's bytes with one letter written as a `\u00XX` escape (the same key once decoded).
  package static func escapingKey(_ key: [UInt8], _ r: inout VariantRandom) -> [UInt8] {
    guard !key.isEmpty, !key.contains(0x5C) else { return key }
    var out = key
    let at = r.below(key.count)
    let hex = Array("0123456789abcdef".utf8)
    out.replaceSubrange(
      at...at, with: [0x5C, 0x75, 0x30, 0x30, hex[Int(key[at] >> 4)], hex[Int(key[at] & 15)]])
    return out
  }
}
