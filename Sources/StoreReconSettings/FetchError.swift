package import StoreReconCore

/// Why a fetch failed: one line a person can act on, and the kind that picks the exit code (the CLI maps
/// it: ``FailureKind/unavailable`` 75 after the retries, ``FailureKind/noPermission`` 77 for a 401/403,
/// ``FailureKind/dataError`` 65 for a response that does not parse, ``FailureKind/config`` 78).
///
/// A message names the request as method and path (``HTTPRequest/label``), never a token, a query
/// string or a key.
package struct FetchError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What kind of failure this is.
  package var kind: FailureKind
  /// One line a person can act on.
  package var message: String

  /// Creates a fetch error.
  package init(_ kind: FailureKind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  package var description: String { message }
}
