// Tidy rule 8: docs/architecture.md's table of what each target depends on is Package.swift's, target
// by target, so the picture a newcomer reads is the one the compiler holds.

enum TidyArchitecture {
  static let docPath = "docs/architecture.md"
  static let manifestPath = "Package.swift"

  /// `Core` for `StoreReconCore`; other names as they are.
  static func short(_ name: String) -> String {
    name.hasPrefix("StoreRecon") ? String(name.dropFirst("StoreRecon".count)) : name
  }

  /// The library and executable targets of the manifest with their dependencies, in short names.
  static func packageTargets(_ manifest: String) -> [String: Set<String>] {
    var targets: [String: Set<String>] = [:]
    let markers = [".target(", ".executableTarget("]
    var rest = Substring(manifest)
    while let start = markers.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
      rest = rest[start.upperBound...]
      let end =
        [".target(", ".executableTarget(", ".testTarget(", ".systemLibrary("]
        .compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
      let declaration = rest[..<end]
      guard let name = quoted(after: "name:", in: declaration) else { continue }
      var dependencies: Set<String> = []
      if let list = declaration.range(of: "dependencies: ["),
        let close = declaration[list.upperBound...].firstIndex(of: "]")
      {
        let items = declaration[list.upperBound..<close].split(separator: ",")
        dependencies = Set(items.map { short(String($0.trimmingWhitespace.filter { $0 != "\"" })) })
        dependencies.remove("")
      }
      targets[short(name)] = dependencies
    }
    return targets
  }

  static func quoted(after label: String, in text: Substring) -> String? {
    guard let labelRange = text.range(of: label),
      let open = text[labelRange.upperBound...].firstIndex(of: "\""),
      let close = text[text.index(after: open)...].firstIndex(of: "\"")
    else { return nil }
    return String(text[text.index(after: open)..<close])
  }

  /// The rows `| target | dependencies |` of the table under `## Dependencies`, in short names; a
  /// dependency cell of `nothing` is the empty set, and `Glibc`, `Dispatch`, `Synchronization` (the
  /// system's modules, not the manifest's) are left out.
  static func documentedTargets(_ doc: String) -> [String: (line: Int, dependencies: Set<String>)] {
    var rows: [String: (line: Int, dependencies: Set<String>)] = [:]
    var inSection = false
    for (offset, line) in doc.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("## ") { inSection = line == "## Dependencies" }
      guard inSection, line.hasPrefix("|") else { continue }
      let cells = line.split(separator: "|").map { String($0.trimmingWhitespace) }
      guard cells.count == 2, !cells[0].hasPrefix("-"), cells[0] != "target" else { continue }
      let name = short(cells[0].filter { $0 != "`" })
      let system: Set<String> = ["Glibc", "Dispatch", "Synchronization", "nothing"]
      let dependencies = cells[1].split(separator: ",").map { short(String($0.trimmingWhitespace)) }
      rows[name] = (offset + 1, Set(dependencies).subtracting(system))
    }
    return rows
  }

  /// Rule 8: a target missing from the table, a row for no target, and a row whose dependencies differ.
  static func check(manifest: String, doc: String) -> [TidyViolation] {
    let built = packageTargets(manifest)
    let drawn = documentedTargets(doc)
    var violations: [TidyViolation] = []
    func list(_ names: Set<String>) -> String {
      names.isEmpty ? "nothing" : names.sorted().joined(separator: ", ")
    }
    for (name, dependencies) in built.sorted(by: { $0.key < $1.key }) {
      guard let row = drawn[name] else {
        violations.append(
          TidyViolation(
            path: docPath, line: 0,
            message: "target \(name) (Package.swift) has no row in the table under ## Dependencies"))
        continue
      }
      if row.dependencies != dependencies {
        violations.append(
          TidyViolation(
            path: docPath, line: row.line,
            message: "\(name) depends on \(list(dependencies)) in Package.swift, but the table says "
              + list(row.dependencies)))
      }
    }
    for (name, row) in drawn.sorted(by: { $0.key < $1.key }) where built[name] == nil {
      violations.append(
        TidyViolation(path: docPath, line: row.line, message: "\(name) is not a target of Package.swift"))
    }
    return violations
  }
}
