internal import CLibPQ

/// Checks a connection string before libpq uses it: it must parse, and it must not carry a password.
///
/// Passwords belong in `~/.pgpass` (or `PGPASSFILE`) or `PGPASSWORD`, never in a config file or on a
/// command line where `ps` and shell history see them.
package enum ConnectionString {
  /// Throws a ``PostgresError/Category/connectionString`` error for a string libpq cannot parse or one
  /// that sets `password`.
  package static func validate(_ text: String) throws(PostgresError) {
    var message: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(text, &message) else {
      let reason = message.map { String(cString: $0) } ?? "it cannot be parsed"
      if let message { PQfreemem(message) }
      throw PostgresError(
        sqlState: nil, message: "invalid database connection string: \(reason)", category: .connectionString)
    }
    defer { PQconninfoFree(options) }
    var i = 0
    while let keyword = options[i].keyword {
      if String(cString: keyword) == "password", let value = options[i].val, value.pointee != 0 {
        throw PostgresError(
          sqlState: nil,
          message:
            "the database connection string carries a password; remove it and put it in ~/.pgpass or PGPASSWORD",
          category: .connectionString)
      }
      i += 1
    }
  }
}
