#if canImport(Glibc)
  import Glibc
#endif

/// Where a run reports its phases: one line per phase with counts and elapsed time.
package protocol ProgressSink: AnyObject {
  /// Reports a finished phase or a notable event.
  func note(_ line: String)
}

/// Writes progress lines to standard error.
package final class StderrProgress: ProgressSink {
  /// Creates a sink writing to stderr.
  package init() {}

  package func note(_ line: String) { StandardError.write("storerecon: \(line)\n") }
}

/// Keeps progress lines in memory (tests) or drops them (`--quiet`).
package final class MemoryProgress: ProgressSink, @unchecked Sendable {
  /// Lines received.
  package private(set) var lines: [String] = []
  /// Creates an empty sink.
  package init() {}
  package func note(_ line: String) { lines.append(line) }
}

/// Writes to file descriptor 2 with write(2) (`fputs(stderr)` does not compile in Swift 6 language mode once a C module re-exports stdio).
package enum StandardError {
  /// Writes text to stderr, ignoring short writes' errors.
  package static func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let n = Glibc.write(2, base + offset, bytes.count - offset)
        if n <= 0 { break }
        offset += n
      }
    }
  }
}

/// Writes to file descriptor 1 with write(2).
package enum StandardOutput {
  /// Writes text to stdout.
  package static func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let n = Glibc.write(1, base + offset, bytes.count - offset)
        if n <= 0 { break }
        offset += n
      }
    }
  }
}
