/// An error that ends a run, with the exit code the executable returns for it (sysexits.h values, plus
/// 3 and 4 for outcomes of a completed run that cron should tell on-call about).
public struct RunError: Error, CustomStringConvertible, Sendable {
  /// Exit codes of `storerecon`, documented in the README.
  public enum Code: Int32, Sendable {
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
    /// The database refused the credentials (wrong or missing password) or a privilege is missing;
    /// or the SMTP server refused the user name or password.
    case noPermission = 77
    /// The configuration is invalid.
    case config = 78
  }

  /// The exit code.
  public var code: Code
  /// One line a person can act on.
  public var message: String

  /// Creates a run error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}
