// Tidy rule 9: the run's as-of window reaches the readers as a value (issue 31). `StoreTimeWindow` is
// made from T by the run and handed down through the readers' settings; the process-wide window it
// replaced (`StoreTimeWindow.ofTheRun`, set by `StoreTimeWindow.set(asOf:)`, read through the static
// `StoreTimeWindow.problem(_:_:)`) is kept only for the Stripe readers listed here, until they take the
// window from their settings too. A new reader of the global fails here.

enum TidyTimeWindow {
  /// The file that declares the window.
  static let home = "Sources/StoreReconIO/StoreTimeWindow.swift"
  /// The last readers of the process-wide window (issue 31): a list that only shrinks.
  static let lastReaders: Set<String> = [
    "Sources/StoreReconImporters/Stripe/StripeObject.swift",
    "Sources/StoreReconImporters/StoreReports/StripeBalanceCells+Unsafe.swift",
  ]
  /// The one writer: the run's set-up, once T is known.
  static let writer = "Sources/StoreReconRun/Pipeline/ReconciliationRun.swift"

  /// Every use of `StoreTimeWindow.problem`, `.ofTheRun` or `.set` outside the home file, the last readers
  /// (`problem` only) and the writer (`set` only).
  static func check(_ files: [TidyFile]) -> [TidyViolation] {
    var violations: [TidyViolation] = []
    for file in files where file.path != home {
      let tokens = file.source.tokens
      for index in tokens.indices.dropLast(2)
      where tokens[index].text == "StoreTimeWindow" && tokens[index + 1].text == "." {
        let member = tokens[index + 2].text
        let allowed: Bool
        switch member {
        case "problem": allowed = lastReaders.contains(file.path)
        case "set": allowed = file.path == writer
        case "ofTheRun": allowed = false
        default: continue
        }
        if !allowed {
          violations.append(
            TidyViolation(
              path: file.path, line: tokens[index].line,
              message: "StoreTimeWindow.\(member) is the process-wide window (issue 31): take the "
                + "window as a value from the reader's settings (e.g. `window.problem(…)`)"))
        }
      }
    }
    return violations
  }
}
