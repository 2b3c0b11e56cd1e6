package import StoreReconCore

/// A failure of the e-mail adapter: what went wrong, in one line a person can act on, and what kind
/// of failure it is. The shell maps the kind to an exit code (docs/config.md lists them).
package struct MailError: Error, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  package typealias Kind = FailureKind

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
