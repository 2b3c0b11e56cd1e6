import Foundation
import Testing

/// The package as the tidy tests read it from disk: its root, its Swift files under Sources/ and Tests/,
/// and the paths of all its files (for citations). The root is the nearest folder above this file that
/// holds a Package.swift, or `STORERECON_TIDY_ROOT` when set (to check another checkout).
struct TidyTree: Sendable {
  var root: String
  var files: [TidyFile]
  var allPaths: Set<String>

  /// `TIDY_WRITE_ALLOWLISTS=1` rewrites the two allowlists from the tree instead of checking them.
  static let regenerating = ProcessInfo.processInfo.environment["TIDY_WRITE_ALLOWLISTS"] == "1"
  static let shared = Result { try TidyTree.load() }
  /// Folders never read: build products and version control.
  static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm"]

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func findRoot(from filePath: String = #filePath) throws -> String {
    if let root = ProcessInfo.processInfo.environment["STORERECON_TIDY_ROOT"], !root.isEmpty { return root }
    var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while folder.path != "/" && !folder.path.isEmpty {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        return folder.path
      }
      folder = folder.deletingLastPathComponent()
    }
    throw Failure(description: "no Package.swift above \(filePath); set STORERECON_TIDY_ROOT")
  }

  static func load() throws -> TidyTree {
    let root = try findRoot()
    guard let walker = FileManager.default.enumerator(atPath: root) else {
      throw Failure(description: "cannot list \(root)")
    }
    var paths: Set<String> = []
    while let relative = walker.nextObject() as? String {
      if skippedFolders.contains(URL(fileURLWithPath: relative).lastPathComponent) {
        walker.skipDescendants()
      } else if walker.fileAttributes?[.type] as? FileAttributeType != .typeDirectory {
        paths.insert(relative)
      }
    }
    let swift = paths.filter {
      ($0.hasPrefix("Sources/") || $0.hasPrefix("Tests/")) && $0.hasSuffix(".swift")
    }
    let files = try swift.sorted().map { path in
      TidyFile(path: path, text: try String(contentsOfFile: root + "/" + path, encoding: .utf8))
    }
    return TidyTree(root: root, files: files, allPaths: paths)
  }

  /// A file under the root as text; empty when it does not exist (an allowlist not yet written).
  func text(_ path: String) -> String {
    (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? ""
  }

  /// The files rules 2 and 3 apply to: all Swift files under Sources/ and Tests/.
  var codeFiles: [TidyFile] { files }

  var functionSpans: [String: [FunctionSpan]] {
    Dictionary(uniqueKeysWithValues: codeFiles.map { ($0.path, FunctionScanner.spans(in: $0.source.tokens)) })
  }

  var citationContext: CitationContext {
    let parent = URL(fileURLWithPath: root).deletingLastPathComponent().path
    return CitationContext(files: allPaths) { path in
      FileManager.default.fileExists(atPath: parent + "/" + path.dropFirst("../".count))
    }
  }

  /// Records one issue per violation, located at the offending file and line.
  func record(_ violations: [TidyViolation], hint: String) {
    for violation in violations {
      let location = SourceLocation(
        fileID: "StoreRecon/"
          + (violation.path.split(separator: "/").last.map(String.init) ?? violation.path),
        filePath: root + "/" + violation.path, line: max(violation.line, 1), column: 1)
      Issue.record(Comment(rawValue: "\(violation)\n(\(hint))"), sourceLocation: location)
    }
  }
}

@Suite("Tidy: the package's own sources")
struct TidyTreeTests {
  @Test("1. each target imports only what its row in allowedImports allows")
  func imports() throws {
    let tree = try TidyTree.shared.get()
    let sources = tree.files.filter { $0.target != nil }
    let violations = TidyImports.unknownTargets(sources) + sources.flatMap { TidyImports.check($0) }
    tree.record(violations, hint: "tidy rule 1; see TidyCheckers.swift")
  }

  @Test(
    "2. pointer code only in StoreReconPlatform, *Unsafe* files and pointer-files.txt",
    .disabled(if: TidyTree.regenerating))
  func pointerCode() throws {
    let tree = try TidyTree.shared.get()
    let violations = TidyPointers.check(tree.codeFiles, allowlist: tree.text(TidyPointers.allowlistPath))
    tree.record(violations, hint: "tidy rule 2; see TidyCheckers.swift")
  }

  @Test(
    "3. no function over 80 lines unless listed in long-functions.txt", .disabled(if: TidyTree.regenerating))
  func functionLengths() throws {
    let tree = try TidyTree.shared.get()
    let violations = TidyFunctions.check(
      tree.functionSpans, allowlist: tree.text(TidyFunctions.allowlistPath))
    tree.record(violations, hint: "tidy rule 3; see TidyCheckers.swift")
  }

  @Test("4. comments cite only files that exist")
  func citations() throws {
    let tree = try TidyTree.shared.get()
    let context = tree.citationContext
    let violations = tree.files.flatMap { TidyCitations.check($0, in: context) }
    tree.record(violations, hint: "tidy rule 4: fix the path, or see the exemptions in TidyCitations.swift")
  }

  @Test("5. Core's folders name only types of their own folder and the folders before them")
  func coreFolderOrder() throws {
    let tree = try TidyTree.shared.get()
    tree.record(TidyCoreOrder.check(tree.files), hint: "tidy rule 5; see TidyCoreOrder.swift")
  }

  @Test(
    "6. the C library and thread types only in StoreReconPlatform, or listed in platform-names.txt",
    .disabled(if: TidyTree.regenerating))
  func platformNames() throws {
    let tree = try TidyTree.shared.get()
    let violations = TidyPlatformNames.check(
      tree.files, allowlist: tree.text(TidyPlatformNames.allowlistPath))
    tree.record(violations, hint: "tidy rule 6; see TidyPlatformNames.swift")
  }

  @Test(
    "7. every +Unsafe file states its preconditions at its entry, or is listed in unsafe-entry.txt",
    .disabled(if: TidyTree.regenerating))
  func unsafeEntry() throws {
    let tree = try TidyTree.shared.get()
    let violations = TidyUnsafeEntry.check(tree.files, allowlist: tree.text(TidyUnsafeEntry.allowlistPath))
    tree.record(violations, hint: "tidy rule 7; see TidyPlatformNames.swift")
  }

  @Test("8. docs/architecture.md's dependency table is Package.swift's")
  func architectureTable() throws {
    let tree = try TidyTree.shared.get()
    let violations = TidyArchitecture.check(
      manifest: tree.text(TidyArchitecture.manifestPath), doc: tree.text(TidyArchitecture.docPath))
    tree.record(violations, hint: "tidy rule 8; see TidyArchitecture.swift")
  }

  @Test("9. the run's time window reaches the readers as a value, not through the global")
  func timeWindow() throws {
    let tree = try TidyTree.shared.get()
    tree.record(TidyTimeWindow.check(tree.files), hint: "tidy rule 9; see TidyTimeWindow.swift")
  }

  /// Run by make-allowlists.sh (`TIDY_WRITE_ALLOWLISTS=1`): rewrites both ratchet lists from the tree.
  @Test("write the allowlists from the current tree", .enabled(if: TidyTree.regenerating))
  func writeAllowlists() throws {
    let tree = try TidyTree.shared.get()
    let lists = [
      (TidyPointers.allowlistPath, TidyPointers.allowlist(for: tree.codeFiles)),
      (TidyFunctions.allowlistPath, TidyFunctions.allowlist(for: tree.functionSpans)),
      (TidyPlatformNames.allowlistPath, TidyUnsafeEntry.platformNamesAllowlist(for: tree.codeFiles)),
      (TidyUnsafeEntry.allowlistPath, TidyUnsafeEntry.allowlist(for: tree.codeFiles)),
    ]
    for (path, text) in lists {
      try text.write(toFile: tree.root + "/" + path, atomically: true, encoding: .utf8)
    }
  }
}
