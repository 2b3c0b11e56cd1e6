#if canImport(Glibc)
  import Glibc
#endif

/// Where a run reports its phases: one line per phase with counts and elapsed time.
public protocol ProgressSink: AnyObject {
  /// Reports a finished phase or a notable event.
  func note(_ line: String)
}

/// Writes progress lines to standard error.
public final class StderrProgress: ProgressSink {
  /// Creates a sink writing to stderr.
  public init() {}

  public func note(_ line: String) { StandardError.write("storerecon: \(line)\n") }
}

/// Keeps progress lines in memory (tests) or drops them (`--quiet`).
public final class MemoryProgress: ProgressSink, @unchecked Sendable {
  /// Lines received.
  public private(set) var lines: [String] = []
  /// Creates an empty sink.
  public init() {}
  public func note(_ line: String) { lines.append(line) }
}

/// Writes to file descriptor 2 with write(2) (STYLE.md: `fputs(stderr)` does not compile in Swift 6 mode here).
public enum StandardError {
  /// Writes text to stderr, ignoring short writes' errors.
  public static func write(_ text: String) {
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
public enum StandardOutput {
  /// Writes text to stdout.
  public static func write(_ text: String) {
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
