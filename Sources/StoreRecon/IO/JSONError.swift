/// Why a text is not valid JSON: what was wrong and at which byte (0-based).
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public var message: String
  /// The byte offset where it was found.
  public var offset: Int

  /// Creates an error.
  public init(_ message: String, at offset: Int) {
    self.message = message
    self.offset = offset
  }

  /// `message at byte N`.
  public var description: String { "\(message) at byte \(offset)" }
}
