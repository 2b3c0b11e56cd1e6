// Tidy rules 6 and 7 (see TidyCheckers.swift for rules 1 to 4, TidyCoreOrder.swift for rule 5).
//
// 6. The C library and threads only in StoreReconPlatform: a target that imports Foundation sees Glibc
//    through it, so rule 1 alone does not keep `rename(…)` or `NSLock` out. In the library targets under
//    Sources/ (not the executables, which are the shell, nor StoreReconTestSupport), the libc calls and
//    thread types below are refused outside StoreReconPlatform unless the file is listed in
//    platform-names.txt (a ratchet, like pointer-files.txt).
// 7. Every `+Unsafe` file says at its entry why its pointer code is safe: a comment before its first
//    declaration holding a line that starts with `Safety:` and states the preconditions, which the code
//    checks (`precondition`, in debug and release) where that is cheap. Files not yet there are listed
//    in unsafe-entry.txt (a ratchet).

enum TidyPlatformNames {
  static let allowlistPath = "Tests/StoreReconTidyTests/platform-names.txt"
  /// C library functions a file outside Platform must not call (the wrappers are in Platform).
  static let functions: Set<String> = [
    "unlink", "rename", "strerror", "getpid", "fsync", "fdatasync", "mmap", "munmap", "madvise", "pread",
    "pwrite", "lseek", "fstat", "lstat", "ftruncate", "mallopt", "malloc_trim", "malloc", "calloc", "realloc",
    "posix_memalign", "dlopen", "dlsym", "clock_gettime", "nanosleep", "usleep", "sysconf", "fcntl", "ioctl",
    "dup2", "flock", "sigaction",
  ]
  /// Thread and lock types (and `errno`), named anywhere in code.
  static let names: Set<String> = [
    "errno", "Thread", "DispatchQueue", "DispatchGroup", "DispatchSemaphore", "DispatchWorkItem", "NSLock",
    "NSRecursiveLock", "NSCondition", "NSConditionLock", "OperationQueue", "Mutex", "Atomic",
  ]
  /// Tokens after which a name is a member or a declaration, not the C library's.
  static let notAfter: Set<String> = [".", "func", "var", "let", "case", "struct", "class", "enum"]

  /// Whether rule 6 applies to the file: a library target under Sources/ other than Platform and
  /// TestSupport.
  static func applies(to file: TidyFile) -> Bool {
    guard let target = file.target else { return false }
    return target.hasPrefix("StoreRecon") && target != "StoreReconPlatform"
      && target != "StoreReconTestSupport"
  }

  /// The C library and thread names a file uses, each once, at its first line.
  static func uses(in source: ScannedSource) -> [SourceToken] {
    var seen: Set<String> = []
    var found: [SourceToken] = []
    let tokens = source.tokens
    for (index, token) in tokens.enumerated() {
      if index > 0 && notAfter.contains(tokens[index - 1].text) { continue }
      let called = index + 1 < tokens.count && tokens[index + 1].text == "("
      guard
        (functions.contains(token.text) && called) || names.contains(token.text)
          || token.text.hasPrefix("pthread_")
      else { continue }
      if seen.insert(token.text).inserted { found.append(token) }
    }
    return found
  }

  /// Rule 6: uses in unlisted files, and stale allowlist lines.
  static func check(_ files: [TidyFile], allowlist: String) -> [TidyViolation] {
    let listed = Dictionary(
      Allowlist(allowlist).entries.map { ($0.fields[0], $0.line) }, uniquingKeysWith: { first, _ in first })
    var violations: [TidyViolation] = []
    var using: Set<String> = []
    for file in files where applies(to: file) {
      let found = uses(in: file.source)
      if !found.isEmpty { using.insert(file.path) }
      guard listed[file.path] == nil else { continue }
      violations += found.map {
        TidyViolation(
          path: file.path, line: $0.line,
          message: "`\($0.text)` outside StoreReconPlatform: use Platform's wrapper (DurableFile, Syscall, "
            + "Lock, Pause, Parallel…) or add one there (the allowlist \(allowlistPath) may only shrink)")
      }
    }
    for (path, line) in listed.sorted(by: { $0.value < $1.value }) where !using.contains(path) {
      violations.append(
        TidyViolation(
          path: allowlistPath, line: line,
          message: "\(path) no longer uses C library or thread names (or does not exist): remove this line"))
    }
    return violations
  }
}

enum TidyUnsafeEntry {
  static let allowlistPath = "Tests/StoreReconTidyTests/unsafe-entry.txt"

  static func isUnsafeFile(_ file: TidyFile) -> Bool {
    file.path.hasPrefix("Sources/") && file.fileName.contains("+Unsafe")
  }

  static let declarationKeywords: Set<String> = [
    "struct", "enum", "class", "extension", "func", "let", "var", "protocol", "actor", "typealias",
  ]

  /// Whether a comment above the file's first declaration (its doc comment, or the file's opening
  /// comment) has a line starting with `Safety:`.
  static func statesSafety(_ source: ScannedSource) -> Bool {
    let firstDeclaration =
      source.tokens.first { declarationKeywords.contains($0.text) }?.line ?? Int.max
    return source.comments.contains { comment in
      comment.line <= firstDeclaration
        && comment.text.trimmingWhitespace.drop { $0 == "/" || $0 == "*" }.trimmingWhitespace
          .hasPrefix("Safety:")
    }
  }

  /// Rule 7: `+Unsafe` files without the statement that are not listed, and stale list lines.
  static func check(_ files: [TidyFile], allowlist: String) -> [TidyViolation] {
    let listed = Dictionary(
      Allowlist(allowlist).entries.map { ($0.fields[0], $0.line) }, uniquingKeysWith: { first, _ in first })
    var violations: [TidyViolation] = []
    var missing: Set<String> = []
    for file in files where isUnsafeFile(file) && !statesSafety(file.source) {
      missing.insert(file.path)
      if listed[file.path] == nil {
        violations.append(
          TidyViolation(
            path: file.path, line: 1,
            message: "a `+Unsafe` file starts with a comment whose line `Safety: …` states the preconditions "
              + "that make its pointer code safe (checked with precondition where cheap)"))
      }
    }
    for (path, line) in listed.sorted(by: { $0.value < $1.value }) where !missing.contains(path) {
      violations.append(
        TidyViolation(
          path: allowlistPath, line: line,
          message: "\(path) states its safety at its entry now (or does not exist): remove this line"))
    }
    return violations
  }

  /// unsafe-entry.txt for the given files.
  static func allowlist(for files: [TidyFile]) -> String {
    let paths = files.filter { isUnsafeFile($0) && !statesSafety($0.source) }.map(\.path).sorted()
    return """
      # `+Unsafe` files that do not yet state at their entry the preconditions of their pointer code (tidy
      # rule 7; see TidyPlatformNames.swift). A ratchet: remove a file once it has its `Safety:` comment;
      # never add one. Regenerate with Tests/StoreReconTidyTests/make-allowlists.sh.

      """ + paths.map { $0 + "\n" }.joined()
  }

  /// platform-names.txt for the given files.
  static func platformNamesAllowlist(for files: [TidyFile]) -> String {
    let paths = files.filter {
      TidyPlatformNames.applies(to: $0) && !TidyPlatformNames.uses(in: $0.source).isEmpty
    }.map(\.path).sorted()
    return """
      # Library files outside StoreReconPlatform that still call the C library or name a thread type (tidy
      # rule 6; see TidyPlatformNames.swift). A ratchet: remove a file once its calls have moved into
      # Platform; never add one. Regenerate with Tests/StoreReconTidyTests/make-allowlists.sh.

      """ + paths.map { $0 + "\n" }.joined()
  }
}
