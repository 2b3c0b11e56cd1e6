import StoreReconPlatform

/// One query of `queries/`: the SQL that returns one contract's rows from the app's database.
package struct ContractQuery: Sendable {
  /// The contracts of the app's rows (docs/contracts.md), in the order a run reads them.
  package enum Contract: String, Sendable, CaseIterable {
    case entitlements, credentials, assignments, goodwill, credits, notifications

    /// Whether a run without it still runs: credits and notifications are read only where the app keeps
    /// them (a `credits.sql` / `notifications.sql` in the queries folder, or `app.credits` /
    /// `app.notifications` in the config).
    package var isOptional: Bool { self == .credits || self == .notifications }

    /// The input role in the manifest and summary (`app.entitlements`, …).
    package var role: String { "app.\(rawValue)" }

    /// The contract's columns, in contract order (the CSV readers' columns).
    package var columns: [String] {
      switch self {
      case .entitlements: return EntitlementCSVReader.columns
      case .credentials: return CredentialCSVReader.columns
      case .assignments: return AssignmentCSVReader.columns
      case .goodwill: return GoodwillCSVReader.columns
      case .credits: return CreditCSVReader.columns
      case .notifications: return NotificationCSVReader.columns
      }
    }

    /// The COPY that loads the contract's table (of the same name) from CSV with a header row.
    package var copyInStatement: String {
      "COPY \(rawValue) (\(columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT csv, HEADER true)"
    }

    /// The file name in `queries/`.
    package var fileName: String { "\(rawValue).sql" }
  }

  /// Which contract the query returns.
  package var contract: Contract
  /// The file's text as read (or as built in).
  package var text: String
  /// The query file as the user named it (`queries/entitlements.sql`); rejects and errors use it.
  package var displayName: String
  /// Whether the text is the copy built into the binary (no queries folder was there).
  package var builtIn: Bool

  /// Creates a query.
  package init(contract: Contract, text: String, displayName: String, builtIn: Bool) {
    self.contract = contract
    self.text = text
    self.displayName = displayName
    self.builtIn = builtIn
  }

  /// SHA-256 of the text, hex: the manifest's checksum of this input.
  package var sha256: String { SHA256Digest.hex(of: Array(text.utf8)) }

  /// The text without trailing white space and semicolons, ready to wrap in `COPY (…) TO STDOUT`.
  package var statement: String {
    var scalars = Substring(text)
    while let last = scalars.last, last == ";" || last.isWhitespace { scalars = scalars.dropLast() }
    return String(scalars)
  }

  /// The COPY that streams the query's rows as CSV with a header row.
  package var copyStatement: String {
    "COPY (\n\(statement)\n) TO STDOUT WITH (FORMAT csv, HEADER true)"
  }

  /// Why `columns` (what the query returns) is not the contract: one line naming the file and the
  /// missing, extra and repeated columns; `nil` when they match (in any order, ignoring case).
  package func contractViolation(columns: [String]) -> String? {
    let expected = contract.columns
    let names = columns.map { $0.lowercased() }
    let missing = expected.filter { !names.contains($0) }
    var seen = Set<String>()
    var extra: [String] = []
    var repeated: [String] = []
    for (name, original) in zip(names, columns) {
      if !seen.insert(name).inserted {
        if !repeated.contains(original) { repeated.append(original) }
      } else if !expected.contains(name) {
        extra.append(original)
      }
    }
    guard !missing.isEmpty || !extra.isEmpty || !repeated.isEmpty else { return nil }
    var parts: [String] = []
    if !missing.isEmpty { parts.append("missing \(missing.joined(separator: ", "))") }
    if !extra.isEmpty { parts.append("extra \(extra.joined(separator: ", "))") }
    if !repeated.isEmpty { parts.append("repeated \(repeated.joined(separator: ", "))") }
    return "\(displayName) does not return the \(contract.rawValue) contract's columns: "
      + parts.joined(separator: "; ")
  }
}
