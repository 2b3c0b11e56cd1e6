/// A failure of a run history store, whatever keeps it: one line a person can act on (naming the file
/// or the server and the operation) and the kind of failure, which the shell maps to an exit code.
package struct HistoryStoreError: Error, CustomStringConvertible, Sendable {
  /// The kind of failure (another run holding the date's lock is ``FailureKind/unavailable``).
  package var kind: FailureKind
  /// One line a person can act on.
  package var message: String

  /// A failure of `kind`.
  package init(_ kind: FailureKind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  package var description: String { message }
}
