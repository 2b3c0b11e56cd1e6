// Tidy rule 5: the folders of StoreReconCore depend on each other one way (see TidyCheckers.swift for
// rules 1 to 4). Core is one module, so the compiler lets any file name any type; this rule reads the
// type names a file uses and fails when one is declared in a folder later in `coreFolderOrder`.

/// Rule 5. The folders of StoreReconCore, from the bottom up: a file may name the types declared in its
/// own folder and in the folders before it, never a type of a folder after it. A folder that holds Swift
/// files and is not listed here fails, so a new folder must take its place in the order.
///
/// - Parallel: the parallel split and its part slots, the scaffolding the rules call.
/// - Money, Model: amounts and currencies; stores, instants, transactions, fee schedules.
/// - Ledger: packed records and chains (and the ledger's own buffer view, `LedgerView`).
/// - AppRowTables, Partition: the app's rows packed beside the ledger; the lineage of a partitioned run.
/// - Notifications, Reconcile: the stores' notifications; the finding rules, revenue and counts.
/// - StoreReports, Experiments: the tie-out with the stores' money reports; the price-test readout.
/// - History, Cases, NextStep: what the summaries read: changes since the last run, the cases, the steps.
/// - Recognition: revenue recognised and deferred over each charge's service period (month-end close).
/// - Payouts: what each payout of the stores' settlement reports is made of, down to the bank deposit.
let coreFolderOrder: [String] = [
  "Parallel", "Money", "Model", "Ledger", "AppRowTables", "Partition", "Notifications", "Reconcile",
  "StoreReports", "Experiments", "History", "Cases", "NextStep", "Recognition",
  "Payouts",
]

enum TidyCoreOrder {
  static let prefix = "Sources/StoreReconCore/"
  static let declarationKeywords: Set<String> = [
    "struct", "enum", "class", "protocol", "typealias", "actor",
  ]

  /// `Ledger` for `Sources/StoreReconCore/Ledger/Chain.swift`; `""` for a file at Core's root; nil
  /// outside Core.
  static func folder(of path: String) -> String? {
    guard path.hasPrefix(prefix) else { return nil }
    let parts = path.dropFirst(prefix.count).split(separator: "/")
    return parts.count > 1 ? String(parts[0]) : ""
  }

  /// The names of the types a file declares: at the top level only (`topLevel`), or at any depth.
  static func declaredTypes(in source: ScannedSource, topLevel: Bool) -> Set<String> {
    var names: Set<String> = []
    var depth = 0
    let tokens = source.tokens
    for (index, token) in tokens.enumerated() {
      switch token.text {
      case "{": depth += 1
      case "}": depth -= 1
      default:
        guard declarationKeywords.contains(token.text), index + 1 < tokens.count,
          !topLevel || depth == 0
        else { continue }
        // `class func`, `class var`: a member, not a type.
        let name = tokens[index + 1].text
        if let first = name.unicodeScalars.first, first.properties.isUppercase { names.insert(name) }
      }
    }
    return names
  }

  /// Rule 5 for the Core files among `files`: each use of a type declared at the top level of a later
  /// folder, once per file and type, at its first line; and each folder missing from `order`.
  static func check(_ files: [TidyFile], order: [String] = coreFolderOrder) -> [TidyViolation] {
    let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
    let core = files.compactMap { file in folder(of: file.path).map { (file, $0) } }
    var violations: [TidyViolation] = []
    for folder in Set(core.map(\.1)).subtracting(rank.keys).sorted() {
      let place = folder.isEmpty ? "Sources/StoreReconCore" : prefix + folder
      violations.append(
        TidyViolation(
          path: place, line: 0,
          message: "Core folder `\(folder)` is not in `coreFolderOrder` (TidyCoreOrder.swift): "
            + "give it its place in the order (files at Core's root go into a folder)"))
    }
    // Each type's folder; a name declared in two folders counts for the lower one.
    var owner: [String: String] = [:]
    for (file, folder) in core where rank[folder] != nil {
      for name in declaredTypes(in: file.source, topLevel: true) {
        if let other = owner[name], let otherRank = rank[other], otherRank <= rank[folder, default: 0] {
          continue
        }
        owner[name] = folder
      }
    }
    for (file, folder) in core {
      guard let own = rank[folder] else { continue }
      let local = declaredTypes(in: file.source, topLevel: false)
      var seen: Set<String> = []
      for (index, token) in file.source.tokens.enumerated() {
        guard let home = owner[token.text], let homeRank = rank[home], homeRank > own,
          !local.contains(token.text), index == 0 || file.source.tokens[index - 1].text != ".",
          seen.insert(token.text).inserted
        else { continue }
        violations.append(
          TidyViolation(
            path: file.path, line: token.line,
            message: "`\(token.text)` is declared in Core/\(home), which comes after Core/\(folder) in "
              + "`coreFolderOrder` (TidyCoreOrder.swift): Core's folders depend on each other one way; "
              + "move the code that needs it up, or the type down"))
      }
    }
    return violations
  }
}
