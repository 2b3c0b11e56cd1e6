// Tidy: rules the compiler does not enforce, checked on the package's own sources (in the spirit of
// TigerBeetle's tidy.zig). The @Tests that walk the tree are in TidyTreeTests.swift; the checkers here and
// in TidyCitations.swift are pure functions of (path, text), unit-tested in TidyCheckerTests.swift and
// TidyFunctionAndCitationTests.swift.
//
// 1. Imports: each target under Sources/ imports only the modules its row below allows.
// 2. Pointer code (`UnsafePointer`, `withUnsafeBytes`, `.baseAddress`…; code only, not comments or
//    strings) in Sources/ and Tests/ only in StoreReconPlatform, in a file whose name contains `Unsafe`,
//    or in a file listed in pointer-files.txt (a ratchet: it may only shrink, and a line whose file no
//    longer has pointer code fails until it is removed).
// 3. No function body (func, init, deinit, subscript, computed property) in Sources/ or Tests/ over 80
//    lines unless listed in long-functions.txt with its length (a ratchet: it fails when a listed one
//    grows, and when one is back within the limit or gone, until removed). Names: see FunctionSpan.name
//    in TidyFunctionScanner.swift.
// 4. Comments in Sources/ and Tests/ cite only files that exist (see TidyCitations.swift).
//
// Regenerate both allowlists from the current tree (after moving files, or to accept a change):
//     Tests/StoreReconTidyTests/make-allowlists.sh
// which runs `TIDY_WRITE_ALLOWLISTS=1 swift test --filter StoreReconTidyTests.TidyTreeTests/writeAllowlists`
// at the package root. `STORERECON_TIDY_ROOT=DIR` points every tidy test at another checkout.
//
// Limits: this is a lexer, not a parser. Regex literals (`/…/`, `#/…/#`) are not understood (none are
// used); `#if` branches are all read; a computed property is recognised only with `{` on its `var` line.

/// Rule 1. The modules each target under Sources/ may import, out of `TidyImports.knownModules`. A folder
/// under Sources/ that holds Swift files and is not a key here fails, so a new target must be added.
/// `StoreRecon*` allows every StoreRecon module; `*` allows everything.
let allowedImports: [String: [String]] = [
  "StoreReconPlatform": ["Glibc", "Dispatch", "Synchronization", "CCrypto"],
  "StoreReconCore": ["StoreReconPlatform"],
  "StoreReconIO": ["StoreReconCore", "StoreReconPlatform", "CZlib", "Foundation"],
  "StoreReconImporters": ["StoreReconCore", "StoreReconIO", "StoreReconPlatform", "Foundation"],
  "StoreReconAppRows": ["StoreReconCore", "StoreReconIO", "StoreReconPlatform", "Foundation"],
  "StoreReconPostgres": [
    "StoreReconCore", "StoreReconIO", "StoreReconAppRows", "StoreReconPlatform", "CLibPQ", "Foundation",
  ],
  "StoreReconSQLite": ["StoreReconCore", "CSQLite"],
  "StoreReconReports": ["StoreReconCore", "StoreReconPlatform", "Foundation"],
  "StoreReconWorkbooks": [
    "StoreReconCore", "StoreReconPlatform", "StoreReconReports", "CXLSXWriter", "Foundation",
  ],
  "StoreReconSettings": ["StoreReconCore", "StoreReconPlatform", "Foundation"],
  "StoreReconMail": [
    "StoreReconCore", "StoreReconReports", "StoreReconSettings", "StoreReconPlatform", "CCurl", "CRsvg",
    "Foundation",
  ],
  "StoreReconFetch": [
    "StoreReconCore", "StoreReconIO", "StoreReconSettings", "StoreReconPlatform", "CCurl", "Foundation",
  ],
  "StoreReconDemo": ["StoreReconCore", "StoreReconPlatform", "Foundation"],
  "StoreReconRun": [
    "StoreReconPlatform", "StoreReconCore", "StoreReconIO", "StoreReconImporters", "StoreReconAppRows",
    "StoreReconReports", "StoreReconSettings", "Foundation",
  ],
  "StoreReconCLI": ["*"],
  "StoreReconTestSupport": ["StoreRecon*", "Foundation", "Testing"],
  "storerecon": ["StoreRecon*", "Glibc", "Foundation"],
  "storerecon-bench": ["StoreRecon*", "Glibc", "Foundation"],
  "storerecon-worker": ["StoreReconRun", "StoreReconPlatform", "Glibc"],
]

/// One broken rule, at a file (root-relative) and 1-based line; line 0 means the whole file or folder.
struct TidyViolation: Equatable, Sendable, CustomStringConvertible {
  var path: String
  var line: Int
  var message: String

  var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}

/// A Swift file of the package: its path relative to the package root, and its scanned text.
struct TidyFile: Sendable {
  var path: String
  var source: ScannedSource

  init(path: String, text: String) {
    self.path = path
    self.source = ScannedSource(text)
  }

  var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }
  /// `StoreReconCore` for a file anywhere under `Sources/StoreReconCore/`; nil outside Sources/.
  var target: String? {
    let parts = path.split(separator: "/")
    return parts.count > 2 && parts[0] == "Sources" ? String(parts[1]) : nil
  }
}

/// An allowlist file's entries: its non-blank, non-`#` lines split at tabs, with their line numbers.
struct Allowlist {
  var entries: [(line: Int, fields: [String])]

  init(_ text: String) {
    entries = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
      let line = $0.element.trimmingWhitespace
      guard !line.isEmpty && !line.hasPrefix("#") else { return nil }
      return ($0.offset + 1, line.split(separator: "\t").map { String($0.trimmingWhitespace) })
    }
  }
}

extension StringProtocol {
  var trimmingWhitespace: Substring {
    let text = Substring(self)
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return text[first...last]
  }
}

enum TidyImports {
  /// The modules rule 1 knows about; imports of any other module (Darwin, Testing…) are not checked.
  static let knownModules: Set<String> = [
    "Foundation", "FoundationEssentials", "Glibc", "Musl", "Dispatch", "Synchronization", "CZlib", "CCrypto",
    "CLibPQ", "CXLSXWriter", "CCurl", "CRsvg", "CSQLite",
  ]

  static func isKnown(_ module: String) -> Bool {
    knownModules.contains(module) || module.hasPrefix("StoreRecon")
  }

  /// Each `import` in the file and the module it names: `@preconcurrency internal import struct X.Y` → X.
  static func imports(in source: ScannedSource) -> [(line: Int, module: String)] {
    let accessModifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
    let kinds: Set<String> = [
      "struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor",
    ]
    return source.tokensByLine.sorted { $0.key < $1.key }.compactMap { line, tokens in
      var cursor = 0
      func text(_ offset: Int) -> String { offset < tokens.count ? tokens[offset].text : "" }
      while true {
        if text(cursor) == "@" {  // an attribute, perhaps with arguments: `@_spi(Name)`
          cursor += 2
          if text(cursor) == "(" {
            while cursor < tokens.count && text(cursor) != ")" { cursor += 1 }
            cursor += 1
          }
        } else if accessModifiers.contains(text(cursor)) {
          cursor += 1
        } else {
          break
        }
      }
      guard text(cursor) == "import" else { return nil }
      cursor += kinds.contains(text(cursor + 1)) ? 2 : 1
      return text(cursor).isEmpty ? nil : (line, text(cursor))
    }
  }

  /// Rule 1 for one file: imports of known modules its target's row does not allow. Files outside
  /// Sources/, or in a folder with no row (`unknownTargets` reports those), are not checked.
  static func check(_ file: TidyFile, table: [String: [String]] = allowedImports) -> [TidyViolation] {
    guard let target = file.target, let allowed = table[target] else { return [] }
    return imports(in: file.source).compactMap { line, module in
      guard isKnown(module), !allows(allowed, module) else { return nil }
      let list = allowed.isEmpty ? "nothing" : allowed.joined(separator: ", ")
      return TidyViolation(
        path: file.path, line: line,
        message: "`import \(module)` is not allowed in target \(target) (allowed: \(list); "
          + "the table is at the top of TidyCheckers.swift)")
    }
  }

  static func allows(_ allowed: [String], _ module: String) -> Bool {
    allowed.contains { $0 == "*" || $0 == module || ($0.hasSuffix("*") && module.hasPrefix($0.dropLast())) }
  }

  /// The target folders (of files with Swift code, so not the C module maps) that have no row.
  static func unknownTargets(_ files: [TidyFile], table: [String: [String]] = allowedImports)
    -> [TidyViolation]
  {
    Set(files.compactMap(\.target)).subtracting(table.keys).sorted().map {
      TidyViolation(
        path: "Sources/\($0)", line: 0,
        message: "target folder \($0) is not in the import table (`allowedImports` at the top of "
          + "TidyCheckers.swift): add a row with the modules it may import")
    }
  }
}

enum TidyPointers {
  static let allowlistPath = "Tests/StoreReconTidyTests/pointer-files.txt"
  static let tokens: Set<String> = [
    "UnsafePointer", "UnsafeMutablePointer", "UnsafeRawPointer", "UnsafeMutableRawPointer",
    "UnsafeBufferPointer", "UnsafeMutableBufferPointer", "UnsafeRawBufferPointer",
    "UnsafeMutableRawBufferPointer", "OpaquePointer", "unsafeBitCast", "unsafeDowncast",
    "assumingMemoryBound", "bindMemory", "withMemoryRebound", "Unmanaged",
  ]

  /// The lines with pointer code (outside comments and string literals), each with its first such token.
  static func uses(in source: ScannedSource) -> [SourceToken] {
    var found: [SourceToken] = []
    for (index, token) in source.tokens.enumerated() where found.last?.line != token.line {
      let afterDot = index > 0 && source.tokens[index - 1].text == "."
      if tokens.contains(token.text) || token.text.hasPrefix("withUnsafe")
        || (afterDot && token.text == "baseAddress")
      {
        found.append(
          token.text == "baseAddress" ? SourceToken(text: ".baseAddress", line: token.line) : token)
      }
    }
    return found
  }

  /// Files that may hold pointer code without being listed: StoreReconPlatform's, and `*Unsafe*` names.
  static func isFenced(_ file: TidyFile) -> Bool {
    file.target == "StoreReconPlatform" || file.fileName.contains("Unsafe")
  }

  /// Rule 2: pointer code in unfenced, unlisted files; and stale allowlist lines.
  static func check(_ files: [TidyFile], allowlist: String) -> [TidyViolation] {
    var listed: [String: Int] = [:]
    var violations: [TidyViolation] = []
    for (line, fields) in Allowlist(allowlist).entries {
      if listed[fields[0]] != nil {
        violations.append(
          TidyViolation(path: allowlistPath, line: line, message: "\(fields[0]) is listed twice"))
      }
      listed[fields[0]] = line
    }
    let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    for file in files where !isFenced(file) && listed[file.path] == nil {
      violations += uses(in: file.source).map {
        TidyViolation(
          path: file.path, line: $0.line,
          message:
            "pointer code (`\($0.text)`) outside the fence: move it to StoreReconPlatform or to a file "
            + "whose name contains `Unsafe` (the allowlist \(allowlistPath) may only shrink)")
      }
    }
    for (path, line) in listed.sorted(by: { $0.value < $1.value }) {
      let problem: String? =
        if let file = byPath[path] {
          isFenced(file)
            ? "is fenced already (StoreReconPlatform, or `Unsafe` in its name)"
            : uses(in: file.source).isEmpty ? "has no pointer code any more" : nil
        } else {
          "does not exist (moved? regenerate the list with make-allowlists.sh)"
        }
      if let problem {
        violations.append(
          TidyViolation(path: allowlistPath, line: line, message: "\(path) \(problem): remove this line"))
      }
    }
    return violations
  }

  /// pointer-files.txt for the given files: every unfenced file with pointer code.
  static func allowlist(for files: [TidyFile]) -> String {
    let paths = files.filter { !isFenced($0) && !uses(in: $0.source).isEmpty }.map(\.path).sorted()
    return """
      # Files outside the pointer fence that still hold pointer code (tidy rule 2; see TidyCheckers.swift).
      # A ratchet: remove a file once its pointer code has moved; never add one. Regenerate with
      # Tests/StoreReconTidyTests/make-allowlists.sh.

      """ + paths.map { $0 + "\n" }.joined()
  }
}

enum TidyFunctions {
  static let limit = 80
  static let allowlistPath = "Tests/StoreReconTidyTests/long-functions.txt"

  /// Rule 3, given each file's function spans: unlisted long functions, listed ones that grew, stale lines.
  static func check(_ spans: [String: [FunctionSpan]], allowlist: String) -> [TidyViolation] {
    var violations: [TidyViolation] = []
    var listed: [String: (line: Int, max: Int)] = [:]
    for (line, fields) in Allowlist(allowlist).entries {
      guard fields.count == 3, let max = Int(fields[2]) else {
        violations.append(
          TidyViolation(path: allowlistPath, line: line, message: "expected path<TAB>name<TAB>lines"))
        continue
      }
      listed[fields[0] + "\t" + fields[1]] = (line, max)
    }
    for (path, fileSpans) in spans.sorted(by: { $0.key < $1.key }) {
      for span in fileSpans where span.lines > limit {
        let where_ = "\(span.name) is \(span.lines) lines"
        if let entry = listed[path + "\t" + span.name] {
          if span.lines > entry.max {
            violations.append(
              TidyViolation(
                path: path, line: span.line,
                message: "\(where_), longer than the \(entry.max) recorded in \(allowlistPath): shorten it"))
          }
        } else {
          violations.append(
            TidyViolation(path: path, line: span.line, message: "\(where_) (limit \(limit)): split it"))
        }
      }
    }
    for (key, entry) in listed.sorted(by: { $0.value.line < $1.value.line }) {
      let parts = key.split(separator: "\t").map(String.init)
      let span = spans[parts[0], default: []].first { $0.name == parts[1] }
      guard span.map({ $0.lines <= limit }) ?? true else { continue }
      let state = span.map { "is \($0.lines) lines now, within the limit" } ?? "is gone (renamed or moved?)"
      violations.append(
        TidyViolation(
          path: allowlistPath, line: entry.line,
          message: "\(parts[1]) in \(parts[0]) \(state): remove this line"))
    }
    return violations
  }

  /// long-functions.txt for the given spans: every function over the limit, at its current length.
  static func allowlist(for spans: [String: [FunctionSpan]]) -> String {
    let lines = spans.sorted { $0.key < $1.key }.flatMap { path, fileSpans in
      fileSpans.filter { $0.lines > limit }.map { "\(path)\t\($0.name)\t\($0.lines)\n" }
    }
    return """
      # Functions over \(limit) lines today (tidy rule 3; see TidyCheckers.swift): path<TAB>name<TAB>lines.
      # A ratchet: a listed function may shrink but not grow; remove its line once it is within the limit.
      # Regenerate with Tests/StoreReconTidyTests/make-allowlists.sh.

      """ + lines.joined()
  }
}
