/// The only global state of a partitioned run: which lineage each joined node belongs to. A node not
/// in the map is a lineage of its own (docs/partitions.md#the-keymap-file).
///
/// The file form is UTF-8 text: the line `storerecon-keymap 1`, then one `node<TAB>lineage` line per
/// entry in byte order of the node, each field escaped as ``PartialText`` escapes.
package struct LineageKeymap: Sendable, Equatable {
  /// The file's first line.
  package static let header = "storerecon-keymap 1"

  /// Node → the lineage's key (its smallest node); only nodes whose lineage is not themselves.
  package private(set) var entries: [String: String]

  /// A pass's share of a keymap (``init(parsing:share:)``): for one partition only, the nodes whose
  /// lineage lies on the other side of that partition than the node's own name would; no entries.
  package private(set) var share: Share?

  /// What a run in passes keeps of the keymap for one pass (docs/partitions.md#runs-in-passes).
  package struct Share: Sendable, Equatable {
    /// The partition the share answers for.
    package let spec: PartitionSpec
    /// The nodes `spec` owns although their own name hashes elsewhere, or does not own although it
    /// hashes to `spec`.
    package var flipped: Set<String> = []
  }

  /// A keymap of these entries.
  package init(entries: [String: String] = [:]) { self.entries = entries }

  /// The lineage key of `node` (a pass's share has no entries: see ``owns(_:in:)``).
  package func lineage(of node: String) -> String { entries[node] ?? node }

  /// Whether partition `spec` owns the lineage of `node`.
  package func owns(_ node: String, in spec: PartitionSpec) -> Bool {
    if let share, share.spec == spec { return spec.owns(lineage: node) != share.flipped.contains(node) }
    return spec.owns(lineage: lineage(of: node))
  }

  /// Whether `a` sorts before `b` in UTF-8 byte order.
  package static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

  /// The file's bytes.
  package func rendered() -> [UInt8] {
    var out = Array((LineageKeymap.header + "\n").utf8)
    for node in entries.keys.sorted(by: LineageKeymap.precedes) {
      out += PartialText.escaped(node)
      out.append(0x09)
      out += PartialText.escaped(entries[node] ?? node)
      out.append(0x0A)
    }
    return out
  }

  /// Reads a keymap file's bytes; throws for a wrong header or a malformed line (with its number).
  package init(parsing bytes: [UInt8]) throws(PartialText.FormatError) {
    try self.init(parsing: bytes, share: nil)
  }

  /// Reads a keymap file's bytes, keeping with `share` only partition `share`'s flipped nodes (a pass
  /// holds those, not the whole map: about a third of its nodes and none of its lineage names), else
  /// every entry; throws for a wrong header or a malformed line (with its number).
  package init(parsing bytes: [UInt8], share spec: PartitionSpec?) throws(PartialText.FormatError) {
    var entries: [String: String] = [:]
    var share = spec.map { Share(spec: $0) }
    var lineNumber = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      if lineNumber == 1 {
        guard String(decoding: line, as: UTF8.self) == LineageKeymap.header else {
          throw PartialText.FormatError(
            line: 1, reason: "not a storerecon keymap (expected '\(LineageKeymap.header)')")
        }
        continue
      }
      if line.isEmpty { continue }
      let fields = try PartialText.fields(line, line: lineNumber)
      guard fields.count == 2 else {
        throw PartialText.FormatError(line: lineNumber, reason: "expected 2 fields, found \(fields.count)")
      }
      if let spec {
        if spec.owns(lineage: fields[0]) != spec.owns(lineage: fields[1]) { share?.flipped.insert(fields[0]) }
      } else {
        entries[fields[0]] = fields[1]
      }
    }
    guard lineNumber >= 1, !bytes.isEmpty else {
      throw PartialText.FormatError(line: 1, reason: "empty file")
    }
    self.entries = entries
    self.share = share
  }
}
