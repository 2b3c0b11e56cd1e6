// Tidy rule 9: the run's as-of window reaches the readers as a value (issue 31). `StoreTimeWindow` is
// made from T by the run and handed down through the readers' settings. The process-wide window it
// replaced (`StoreTimeWindow.ofTheRun`, set by `StoreTimeWindow.set(asOf:)`, read through a static
// `StoreTimeWindow.problem(_:_:)`) is gone; a file that brings one of those names back fails here.

enum TidyTimeWindow {
  /// The file that declares the window.
  static let home = "Sources/StoreReconIO/StoreTimeWindow.swift"
  /// The names of the process-wide window that was removed.
  static let globalNames: Set<String> = ["problem", "set", "ofTheRun"]

  /// Every use of `StoreTimeWindow.problem`, `.ofTheRun` or `.set` (the type's name, not a value of it).
  static func check(_ files: [TidyFile]) -> [TidyViolation] {
    var violations: [TidyViolation] = []
    for file in files {
      let tokens = file.source.tokens
      for index in tokens.indices.dropLast(2)
      where tokens[index].text == "StoreTimeWindow" && tokens[index + 1].text == "."
        && globalNames.contains(tokens[index + 2].text)
      {
        violations.append(
          TidyViolation(
            path: file.path, line: tokens[index].line,
            message: "StoreTimeWindow.\(tokens[index + 2].text) is a process-wide window (issue 31): take "
              + "the window as a value from the reader's settings (e.g. `window.problem(…)`)"))
      }
    }
    return violations
  }
}
