/// A failure of the PostgreSQL adapter: what went wrong, in one line a person can act on, and what kind
/// of failure it is. The shell maps the kind to an exit code (docs/config.md lists them).
package struct DatabaseError: Error, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  package enum Kind: Sendable, Equatable {
    /// A row or a file to load was malformed.
    case dataError
    /// A query file or a folder to load does not exist.
    case missingInput
    /// An internal inconsistency (a bug).
    case software
    /// A report or a file could not be written or read.
    case ioError
    /// The server could not be reached, or another run holds the date's lock (worth retrying).
    case unavailable
    /// The server refused the user name or password, or a privilege is missing.
    case noPermission
    /// The connection string, a query or the database named is wrong.
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
