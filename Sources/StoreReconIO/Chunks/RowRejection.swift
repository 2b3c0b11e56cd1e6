package import StoreReconCore

/// Why one input row is rejected: a reason a person can act on ("missing originalTransactionId").
package struct RowRejection: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason, as written to the rejects file.
  package var reason: String

  /// Creates a rejection with `reason`.
  package init(_ reason: String) { self.reason = reason }

  /// The reason for a money error (its description: "amount '4.999' has more digits than EUR allows …").
  package init(_ error: MoneyError) { self.reason = error.description }

  /// The reason.
  package var description: String { reason }
}
