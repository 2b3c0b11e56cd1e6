/// Seeded variants of store lines for the differential tests and fuzzers of the importers' fast paths:
/// realistic lines (every field the store sends, in any order, with the spacing other writers use,
/// long ids, every timestamp form) and edited ones (unknown keys, escapes, odd numbers, duplicate keys,
/// broken JSON) that a fast path must either read exactly as the full parser does or decline.
package enum LineVariants {
  /// One variant: its bytes and the edits that made it (for failure messages).
  package struct Variant {
    /// The line.
    package var bytes: [UInt8]
    /// What was done to the base line.
    package var edits: [String]

    /// The line as text (invalid UTF-8 shown as U+FFFD), for messages.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// An edit of a draft: its name and what it does.
  typealias Edit = (name: String, apply: (DraftJSON, inout VariantRandom) -> DraftJSON)

  /// `count` variants from `seed`: each a realistic base line with up to `maxEdits` random edits of
  /// `edits` (after a permutation and a random spacing, each present half the time).
  static func variants(
    seed: UInt64, count: Int, maxEdits: Int, base: (inout VariantRandom) -> DraftJSON, edits: [Edit],
    lineEdits: Bool
  ) -> [Variant] {
    var r = VariantRandom(seed: seed)
    return (0..<count).map { _ in
      var draft = base(&r)
      var names: [String] = []
      if r.chance(50) {
        draft = draft.permuted(&r)
        names.append("permuted")
      }
      for _ in 0..<r.below(maxEdits + 1) {
        let edit = r.pick(edits)
        draft = edit.apply(draft, &r)
        names.append(edit.name)
      }
      let spacing = r.chance(50) ? DraftJSON.Spacing.compact : DraftJSON.Spacing.random(&r)
      var bytes = draft.render(spacing)
      if lineEdits && r.chance(8) {
        let (name, edited) = brokenLine(bytes, &r)
        bytes = edited
        names.append(name)
      }
      return Variant(bytes: bytes, edits: names)
    }
  }

  /// Realistic lines only: the base with its members permuted and the spacing of other writers, and
  /// none of the unusual edits — the shapes real exports have, which the fast path should take.
  static func realistic(seed: UInt64, count: Int, base: (inout VariantRandom) -> DraftJSON) -> [Variant] {
    var r = VariantRandom(seed: seed)
    return (0..<count).map { _ in
      let draft = base(&r).permuted(&r)
      let spacing: DraftJSON.Spacing =
        r.chance(50) ? .compact : DraftJSON.Spacing(afterColon: [0x20], afterComma: [0x20])
      return Variant(bytes: draft.render(spacing), edits: ["realistic"])
    }
  }

  /// A line broken (or bent) at the byte level: cut short, with bytes after the object, a trailing
  /// comma, a control byte or a byte that is not UTF-8, a byte-order mark, leading spaces.
  static func brokenLine(_ bytes: [UInt8], _ r: inout VariantRandom) -> (String, [UInt8]) {
    var out = bytes
    switch r.below(8) {
    case 0:
      out = Array(out.prefix(r.below(out.count)))
      return ("cut", out)
    case 1: return ("trailing bytes", out + Array(r.pick(["x", "}", ",", " {}", "\u{0}"]).utf8))
    case 2:
      if let close = out.lastIndex(of: 0x7D) { out.insert(0x2C, at: close) }
      return ("trailing comma", out)
    case 3:
      out.insert(r.pick([0x01, 0x1F, 0x7F, 0x0B]), at: r.below(out.count + 1))
      return ("control byte", out)
    case 4:
      out.insert(r.pick([0xFF, 0xC0, 0xE2, 0x80]), at: r.below(out.count + 1))
      return ("not UTF-8", out)
    case 5: return ("byte-order mark", [0xEF, 0xBB, 0xBF] + out)
    case 6: return ("leading space", [0x20] + out + [0x20])
    default:
      let at = r.below(out.count)
      out[at] = r.pick([0x22, 0x5C, 0x3A, 0x2C, 0x7B, 0x5B])
      return ("one byte changed", out)
    }
  }

  /// Keys that look like `known` ones and are not: prefixes, suffixes, other cases, look-alikes.
  static func lookAlikes(_ known: [String]) -> [String] {
    known.flatMap { key -> [String] in
      [key + "X", "x" + key, String(key.dropLast()), key.prefix(1).uppercased() + key.dropFirst(), key + " "]
    } + ["", " ", "_", "\u{e9}"]
  }

  /// The edits every JSON format gets: unknown keys (scalar, nested objects holding known keys,
  /// arrays), look-alike keys, escapes in values and keys, duplicate keys, nulls, wrong kinds.
  static func commonEdits(known: [String], unknown: [String]) -> [Edit] {
    let fakes = lookAlikes(known) + unknown
    let scalars = [
      "\"x\"", "0", "-1", "1.5", "1e3", "true", "false", "null", "\"\"", "{}", "[]",
      "\"2026-01-01T00:00:00Z\"",
    ]
    return [
      (
        "unknown scalar",
        { d, r in
          d.editingRandomObject(&r) { o, r in
            o.inserting(Array(r.pick(fakes).utf8), .literal(r.pick(scalars)), &r)
          }
        }
      ),
      (
        "unknown nested",
        { d, r in
          // An object or array holding known keys with values of the wrong kind: only the top ones count.
          var inner: [(String, DraftJSON)] = []
          for _ in 0..<(1 + r.below(3)) { inner.append((r.pick(known), .literal(r.pick(scalars)))) }
          let nested: DraftJSON =
            r.chance(50)
            ? .members(inner) : .array([.members(inner), .literal("1"), .string("a"), .array([])])
          return d.editingRandomObject(&r) { o, r in
            o.inserting(Array(r.pick(unknown + fakes).utf8), nested, &r)
          }
        }
      ),
      ("escape in a value", { d, r in d.editingRandomObject(&r) { o, r in o.editingString(&r) } }),
      (
        "escape in a key",
        { d, r in
          d.editingRandomObject(&r) { object, r in
            guard case .object(var members) = object, !members.isEmpty else { return object }
            let n = r.below(members.count)
            members[n].key = DraftJSON.escapingKey(members[n].key, &r)
            return .object(members)
          }
        }
      ),
      (
        "duplicate key",
        { d, r in
          d.editingRandomObject(&r) { object, r in
            guard case .object(let members) = object, let member = members.isEmpty ? nil : r.pick(members)
            else {
              return object
            }
            let value: DraftJSON = r.chance(50) ? member.value : .literal(r.pick(scalars))
            return object.inserting(member.key, value, &r)
          }
        }
      ),
      (
        "wrong kind",
        { d, r in
          d.editingRandomObject(&r) { object, r in
            guard let key = object.membersList.isEmpty ? nil : r.pick(object.membersList).key else {
              return object
            }
            return object.setting(String(decoding: key, as: UTF8.self), .literal(r.pick(scalars)))
          }
        }
      ),
      (
        "removed",
        { d, r in
          d.editingRandomObject(&r) { object, r in
            guard let key = object.membersList.isEmpty ? nil : r.pick(object.membersList).key else {
              return object
            }
            return object.setting(String(decoding: key, as: UTF8.self), nil)
          }
        }
      ),
    ]
  }
}
