/// Checks a connection string before libpq uses it: it must parse, and it must not carry a password.
///
/// Passwords belong in `~/.pgpass` (or `PGPASSFILE`) or `PGPASSWORD`, never in a config file or on a
/// command line where `ps` and shell history see them.
package enum ConnectionString {
  /// Throws a ``PostgresError/Category/connectionString`` error for a string libpq cannot parse or one
  /// that sets `password`.
  package static func validate(_ text: String) throws(PostgresError) {
    let options: [LibPQ.Option]
    switch LibPQ.parseConnectionOptions(text) {
    case .success(let parsed):
      options = parsed
    case .failure(let failure):
      let reason = failure.reason ?? "it cannot be parsed"
      throw PostgresError(
        sqlState: nil, message: "invalid database connection string: \(reason)", category: .connectionString)
    }
    for option in options {
      if option.keyword == "password", let value = option.value, !value.isEmpty {
        throw PostgresError(
          sqlState: nil,
          message:
            "the database connection string carries a password; remove it and put it in ~/.pgpass or PGPASSWORD",
          category: .connectionString)
      }
    }
  }
}
