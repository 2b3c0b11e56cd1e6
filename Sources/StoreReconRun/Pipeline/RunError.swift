package import StoreReconCore
package import StoreReconSettings

/// An error that ends a run, with the exit code the executable returns for it (sysexits.h values, plus
/// 3 and 4 for outcomes of a completed run that cron should tell on-call about).
package struct RunError: Error, CustomStringConvertible, Sendable {
  /// Exit codes of `storerecon`, documented in the README.
  package enum Code: Int32, Sendable {
    /// The run completed, but findings exceed a configured threshold (config `"alerts"`).
    case thresholdExceeded = 3
    /// `--require-complete`: an input does not cover the report date; the e-mail was not sent.
    case incomplete = 4
    /// Wrong arguments.
    case usage = 64
    /// An input file was malformed (the reports were still written).
    case dataError = 65
    /// A configured input file does not exist.
    case missingInput = 66
    /// An internal inconsistency (a bug): please report it.
    case software = 70
    /// A report could not be written.
    case ioError = 74
    /// A database or SMTP server could not be reached, or another run holds the date's lock (cron may retry).
    case unavailable = 75
    /// The database refused the login (wrong or missing password) or a privilege is missing;
    /// or the SMTP server refused the user name or password.
    case noPermission = 77
    /// The configuration is invalid.
    case config = 78
  }

  /// The exit code.
  package var code: Code
  /// One line a person can act on; control characters (from a config value, a file name) shown as
  /// `\xHH`, never printed raw.
  package var message: String

  /// Creates a run error.
  package init(_ code: Code, _ message: String) {
    self.code = code
    var line = Substring(message)
    while let last = line.last, last == "\n" || last == "\r\n" || last == "\r" { line = line.dropLast() }
    self.message = VisibleText.escaped(String(line))
  }

  package var description: String { message }
}

extension RunError {
  /// The run error of an adapter's failure: its kind picks the exit code.
  package init(kind: FailureKind, _ message: String) {
    let code: Code
    switch kind {
    case .dataError: code = .dataError
    case .missingInput: code = .missingInput
    case .software: code = .software
    case .ioError: code = .ioError
    case .unavailable: code = .unavailable
    case .noPermission: code = .noPermission
    case .config: code = .config
    }
    self.init(code, message)
  }

  /// The run error of an e-mail adapter failure.
  package init(_ error: MailError) { self.init(kind: error.kind, error.message) }
}

/// `body`, a step of the e-mail adapter, with its failure thrown as the run error of its kind.
package func viaMail<T>(_ body: () throws(MailError) -> T) throws(RunError) -> T {
  do {
    return try body()
  } catch {
    throw RunError(error)
  }
}
