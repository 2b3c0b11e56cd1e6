#if canImport(Glibc)
  import Glibc
#endif

/// Where a run reports its phases: one line per phase with counts and elapsed time.
package protocol ProgressSink: AnyObject {
  /// Reports a finished phase or a notable event.
  func note(_ line: String)
  /// Whether a long step's progress is redrawn in place on stderr (a terminal) rather than noted
  /// line by line (``ReadProgress``).
  var redrawsInPlace: Bool { get }
}

extension ProgressSink {
  /// Line by line, unless the sink says otherwise.
  package var redrawsInPlace: Bool { false }
}

/// Writes progress lines to standard error.
package final class StderrProgress: ProgressSink {
  /// Creates a sink writing to stderr.
  package init() {}

  package func note(_ line: String) { StandardError.write("storerecon: \(line)\n") }

  /// Redrawn in place when stderr is a terminal.
  package var redrawsInPlace: Bool { isatty(2) == 1 }
}

/// Keeps progress lines in memory (tests) or drops them (`--quiet`); lines may come from any thread
/// (a read on another thread notes its own).
package final class MemoryProgress: ProgressSink, @unchecked Sendable {
  private let lock = Lock()
  private var kept: [String] = []
  /// Lines received.
  package var lines: [String] { lock.locked { kept } }
  /// Creates an empty sink.
  package init() {}
  package func note(_ line: String) { lock.locked { kept.append(line) } }
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

/// A long phase's progress on stderr: a percentage rewritten in place on a terminal, plain lines at
/// each tenth otherwise (a log file gets no carriage returns); nothing for a phase done within
/// ``quietSeconds`` (most runs), and nothing at all when `enabled` is false (`--quiet`).
package final class PercentProgress {
  /// Seconds a phase runs before its progress is shown.
  package static let quietSeconds = 2
  private let label: String
  private let enabled: Bool
  private let terminal: Bool
  private let clock = ContinuousClock()
  private let started: ContinuousClock.Instant
  private var shown = -1
  private var wroteInPlace = false

  /// Progress of `label` (`generating the demo world`); on a terminal when stderr is one.
  package init(label: String, enabled: Bool) {
    self.label = label
    self.enabled = enabled
    terminal = isatty(2) == 1
    started = clock.now
  }

  /// `done` of `total` units are done.
  package func update(_ done: Int, of total: Int) {
    guard enabled, total > 0, clock.now - started >= .seconds(Self.quietSeconds) else { return }
    let percent = min(100, done * 100 / total)
    if terminal {
      guard percent != shown else { return }
      StandardError.write("\rstorerecon: \(label): \(percent) %")
      wroteInPlace = true
    } else {
      guard percent / 10 != shown / 10 || shown < 0 else { return }
      StandardError.write("storerecon: \(label): \(percent) %\n")
    }
    shown = percent
  }

  /// Ends the in-place line (a terminal) so the next line starts clean.
  package func finish() {
    if wroteInPlace { StandardError.write("\rstorerecon: \(label): 100 %\n") }
    wroteInPlace = false
  }
}
