extension PostgresConnection {
  /// Connects for a command: a failure is one line with its exit code (75 unreachable, 77 wrong or
  /// missing password, 78 unknown database or a connection string with a password in it).
  package static func open(_ connectionString: String) throws(DatabaseError) -> PostgresConnection {
    do {
      return try PostgresConnection.connect(connectionString)
    } catch {
      var failure = error.databaseError("cannot connect to the database")
      if error.category == .permission && error.sqlState != nil {
        failure.message += "; check the password in ~/.pgpass or PGPASSWORD and the role's grants"
      }
      throw failure
    }
  }
}
