/// What kind of failure an adapter (the database, the mail) met. Each adapter throws its own error type
/// carrying one; the shell alone maps the kind to an exit code (docs/config.md#exit-codes).
package enum FailureKind: Sendable, Equatable {
  /// A row or a file to load was malformed.
  case dataError
  /// A file or folder the adapter needs does not exist.
  case missingInput
  /// An internal inconsistency (a bug).
  case software
  /// A file could not be written or read.
  case ioError
  /// The server could not be reached, or another run holds the date's lock (worth retrying).
  case unavailable
  /// The server refused the user name or password, or a privilege is missing.
  case noPermission
  /// The settings, a query or the database named are wrong.
  case config
}
