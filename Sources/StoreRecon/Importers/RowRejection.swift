/// Why one input row is rejected: a reason a person can act on ("missing originalTransactionId").
public struct RowRejection: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason, as written to the rejects file.
  public var reason: String

  /// Creates a rejection with `reason`.
  public init(_ reason: String) { self.reason = reason }

  /// The reason for a money error (its description: "amount '4.999' has more digits than EUR allows …").
  public init(_ error: MoneyError) { self.reason = error.description }

  /// The reason.
  public var description: String { reason }
}
