/// Why a text is not valid JSON: what was wrong and at which byte (0-based).
package struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong.
  package var message: String
  /// The byte offset where it was found.
  package var offset: Int

  /// Creates an error.
  package init(_ message: String, at offset: Int) {
    self.message = message
    self.offset = offset
  }

  /// `message at byte N`.
  package var description: String { "\(message) at byte \(offset)" }
}
