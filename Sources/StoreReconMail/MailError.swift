/// A failure of the e-mail adapter: what went wrong, in one line a person can act on, and what kind
/// of failure it is. The shell maps the kind to an exit code (docs/config.md lists them).
package struct MailError: Error, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  package enum Kind: Sendable, Equatable {
    /// A message could not be built from the reports.
    case dataError
    /// The report folder or a file to attach does not exist.
    case missingInput
    /// An internal inconsistency (a bug).
    case software
    /// A report or a file could not be written or read.
    case ioError
    /// The SMTP server could not be reached (worth retrying).
    case unavailable
    /// The SMTP server refused the user name or password.
    case noPermission
    /// The mail settings are wrong.
    case config
  }

  /// The kind of failure.
  package var kind: Kind
  /// One line a person can act on.
  package var message: String

  /// A failure of `kind`.
  package init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  package var description: String { message }
}
