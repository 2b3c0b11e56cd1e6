/// Rule 4: a comment that cites a repository file (a word ending in .md, .sql, .swift, .py or .sh, or a
/// .csv/.json path under one of the repository's own top-level folders) names a file that exists.
///
/// A cited path resolves when it is, with any `#anchor` dropped and a leading `./` removed:
/// - a file relative to the package root, or to its docs/ folder;
/// - for `../…`, a file relative to the root's parent (`existsBesideRoot`);
/// - or the tail of some repository file's path (`StoreReconTidyTests/TidyCheckers.swift`, `main.swift`),
///   so citations survive files moving between targets and plain names need no folder.
///
/// Not checked, to stay conservative: words with `*`, `<`, `{`, `$` or `%` (patterns and placeholders);
/// one-letter stems (`X.swift`, `a.csv`); absolute paths and URLs; the report and output names in
/// `outputNames` and anything under reports/; and .csv/.json names outside the repository's folders
/// (`app/entitlements.csv`, `fx/rates.csv` are input files of a run, not of this repository).
struct CitationContext {
  /// Every file of the repository, relative to the root (`queries/schema.sql`).
  var files: Set<String>
  /// Whether a `../…` path exists relative to the package root's parent.
  var existsBesideRoot: (String) -> Bool = { _ in false }

  init(files: Set<String>, existsBesideRoot: @escaping (String) -> Bool = { _ in false }) {
    self.files = files
    self.existsBesideRoot = existsBesideRoot
    self.topFolders = Set(
      files.compactMap { $0.contains("/") ? $0.split(separator: "/").first.map(String.init) : nil })
  }

  /// First components of the repository's paths that are folders (`queries`, `Sources`, `bench`).
  private(set) var topFolders: Set<String>

  func resolves(_ path: String) -> Bool {
    if path.hasPrefix("../") { return existsBesideRoot(path) }
    return files.contains(path) || files.contains("docs/" + path)
      || files.contains { $0.hasSuffix("/" + path) }
  }
}

enum TidyCitations {
  static let documentExtensions: Set<String> = ["md", "sql", "swift", "py", "sh"]
  static let dataExtensions: Set<String> = ["csv", "json"]
  /// Names of files the job writes (reports and run outputs), cited as such, not as repository files.
  static let outputNames: Set<String> = [
    "findings.csv", "revenue.csv", "counts.csv", "summary.html", "summary.md", "manifest.json",
    "experiments.csv", "readout.csv",
  ]

  private static let separators = Set(" \t`'\"()[],;:!?“”‘’«»—–…→".unicodeScalars)
  private static let placeholderMarks = Set("*<>{}$%\\|=".unicodeScalars)

  /// Rule 4 for one file: every cited path in its comments that does not resolve.
  static func check(_ file: TidyFile, in context: CitationContext) -> [TidyViolation] {
    file.source.comments.flatMap { comment in
      citations(in: comment.text, context: context).filter { !context.resolves($0.path) }.map {
        TidyViolation(
          path: file.path, line: comment.line,
          message: "comment cites `\($0.word)`, which is not in the repository (looked at the root, docs/, "
            + "and paths ending in it)")
      }
    }
  }

  /// The words of a comment that cite a repository file, each with the path to look up.
  static func citations(in text: String, context: CitationContext) -> [(word: String, path: String)] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if separators.contains(scalar) || scalar.properties.isWhitespace {
        if !current.isEmpty { words.append(String(current)) }
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words.compactMap { word in
      var word = Substring(word)
      while word.hasSuffix(".") { word = word.dropLast() }  // the end of a sentence
      return citedPath(String(word), context: context).map { (String(word), $0) }
    }
  }

  /// The path `word` cites, or nil when it is no citation (or one this rule leaves alone).
  static func citedPath(_ word: String, context: CitationContext) -> String? {
    if word.unicodeScalars.contains(where: { placeholderMarks.contains($0) }) { return nil }
    var path = Substring(word)
    if let anchor = path.firstIndex(of: "#") { path = path[..<anchor] }
    while path.hasPrefix("./") { path = path.dropFirst(2) }
    guard !path.hasPrefix("/"), !path.hasPrefix("~"), !path.contains("//") else { return nil }
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let stem = name[..<dot]
    let ext = String(name[name.index(after: dot)...])
    guard stem.count > 1, !outputNames.contains(name), !path.hasPrefix("reports/") else { return nil }
    guard
      path.unicodeScalars.allSatisfy({
        $0.isASCII && $0.properties.isAlphabetic || "0123456789_-+./@".unicodeScalars.contains($0)
      })
    else { return nil }
    if documentExtensions.contains(ext) { return String(path) }
    guard dataExtensions.contains(ext) else { return nil }
    let first = path.split(separator: "/").first.map(String.init) ?? ""
    let inRepositoryFolder =
      path.contains("/") && (first == ".." || first == "docs" || context.topFolders.contains(first))
    return inRepositoryFolder ? String(path) : nil
  }
}
