/// An error reported by libpq or the PostgreSQL server: the SQLSTATE (where the server sent one) and
/// one line of message.
///
/// The ``category`` groups SQLSTATEs by what a person does about them; ``runError(_:queryCode:)``
/// turns that into the run's exit code (75 unreachable, 77 authentication or permission, 78 config).
package struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What a person does about an error.
  package enum Category: Sendable, Equatable {
    /// The server cannot be reached, or the connection was lost, or it is starting up, shutting down
    /// or out of resources: try again later (exit 75).
    case unavailable
    /// Authentication failed or a privilege is missing: fix the user name, the password or the grants (exit 77).
    case permission
    /// The database named in the connection string does not exist (exit 78).
    case unknownDatabase
    /// The connection string itself is invalid, or carries a password (exit 78).
    case connectionString
    /// A lock could not be taken within the lock timeout (exit 75).
    case lockTimeout
    /// A statement ran past its `statement_timeout` or was cancelled (SQLSTATE 57014): retryable (exit 75).
    case timeout
    /// A statement tried to write inside a read-only transaction (SQLSTATE 25006): the contract
    /// queries may only read; a query file to fix (exit 78).
    case writeInReadOnly
    /// The SQL is wrong: syntax, an unknown table or column, a wrong type (a query file to fix).
    case query
    /// The data broke a rule: a value the column's type cannot hold, a duplicate key (exit 65).
    case data
    /// Anything else (a bug in this tool or an unexpected server state).
    case other
  }

  /// The five-character SQLSTATE, when the server sent one (`28P01`, `42P01`, …).
  package var sqlState: String?
  /// The server's primary message, or libpq's message, on one line.
  package var message: String
  /// Whether the connection is gone (libpq's status is `CONNECTION_BAD`).
  package var connectionLost: Bool
  private var fixedCategory: Category?

  /// Creates an error; its category follows from the SQLSTATE unless `category` is given.
  package init(sqlState: String?, message: String, connectionLost: Bool = false, category: Category? = nil) {
    self.sqlState = sqlState
    self.message = PostgresError.oneLine(message)
    self.connectionLost = connectionLost
    self.fixedCategory = category
  }

  /// What a person does about it, from the SQLSTATE class.
  package var category: Category {
    if let fixedCategory { return fixedCategory }
    guard let state = sqlState, state.utf8.count == 5 else {
      return connectionLost ? .unavailable : .other
    }
    switch state {
    case "42501": return .permission  // insufficient_privilege
    case "55P03": return .lockTimeout  // lock_not_available
    case "3D000": return .unknownDatabase  // invalid_catalog_name
    case "57P01", "57P02", "57P03": return .unavailable  // admin/crash shutdown, cannot connect now
    case "57014": return .timeout  // query_canceled: statement_timeout, or cancelled
    case "25006": return .writeInReadOnly  // read_only_sql_transaction
    default: break
    }
    switch state.prefix(2) {
    case "08", "53", "58": return .unavailable  // connection exception, insufficient resources, system error
    case "28": return .permission  // invalid authorization specification
    case "42", "0A", "21", "3F", "34", "26", "2B": return .query
    case "22", "23": return .data
    default: return connectionLost ? .unavailable : .other
    }
  }

  /// `message (SQLSTATE 42P01)`, or just the message when there is no SQLSTATE.
  package var description: String {
    sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
  }

  /// A database error for this failure while doing `what` ("reading queries/entitlements.sql from the
  /// database"); `queryCode` is the kind of a ``Category/query`` error in that context.
  package func databaseError(_ what: String, queryCode: DatabaseError.Kind = .config) -> DatabaseError {
    var message = "\(what): \(description)"
    if category == .writeInReadOnly {
      message += "; the contract queries run in a read-only transaction and may only read"
    } else if category == .timeout {
      message += "; try again, or raise statement_timeout (docs/postgresql.md)"
    }
    return DatabaseError(kind(queryCode: queryCode), message)
  }

  /// The kind of this error (the shell maps it to an exit code); `queryCode` for ``Category/query``.
  package func kind(queryCode: DatabaseError.Kind = .config) -> DatabaseError.Kind {
    switch category {
    case .unavailable, .lockTimeout, .timeout: return .unavailable
    case .writeInReadOnly: return .config
    case .permission: return .noPermission
    case .unknownDatabase, .connectionString: return .config
    case .query: return queryCode
    case .data: return .dataError
    case .other: return .software
    }
  }

  /// libpq's multi-line messages ("…failed: Connection refused\n\tIs the server running…") as one line.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
      .map { line in
        var s = line
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
      }
      .filter { !$0.isEmpty }
      .joined(separator: " ")
  }
}
