package import StoreReconCore
package import StoreReconAppRows

/// Reads the app's rows from PostgreSQL: each contract query's rows streamed with
/// `COPY (query) TO STDOUT WITH (FORMAT csv, HEADER true)` through the same readers as the CSV files,
/// so rows are accepted and rejected exactly as in a file (the reject's file is the query file, its
/// line the row's number in the result).
package enum DatabaseAppRows {
  /// Checks that every query returns exactly its contract's columns, before anything is read.
  /// A query that fails to plan is a 78 naming its file; a column mismatch is a 78 naming the columns.
  package static func checkContracts(_ queries: [ContractQuery], connection: PostgresConnection)
    throws(DatabaseError)
  {
    for query in queries {
      let columns: [String]
      do {
        columns = try connection.columns(of: query.statement)
      } catch {
        throw error.databaseError(query.displayName)
      }
      if let problem = query.contractViolation(columns: columns) { throw DatabaseError(.config, problem) }
    }
  }

  /// Streams `query`'s rows into `rows`; rejected rows go to `rejects`. A failure of the query or the
  /// connection stops the run (75 connection lost or a statement timeout, 78 an error in the query or a
  /// query that writes, 65 data it cannot convert).
  ///
  /// The first query opens the read-only snapshot all of them share
  /// (``PostgresConnection/beginReadOnlySnapshot(_:)``); the run ends it once the last is read.
  package static func read(
    _ query: ContractQuery, connection: PostgresConnection, fileIndex: Int32, rejects: any RejectSink,
    rows: inout AppRowSet, notifications: NotificationCSVReader? = nil,
    limits: PostgresConnection.SnapshotLimits = .standard
  ) throws(DatabaseError) -> (counts: InputCounts, bytes: Int64) {
    let source: PostgresCopyOutSource
    do {
      try connection.beginReadOnlySnapshot(limits)
      source = try connection.copyOut(query.copyStatement, displayName: query.displayName)
    } catch {
      throw error.databaseError(query.displayName)
    }
    let name = query.displayName
    do {
      let counts: InputCounts
      switch query.contract {
      case .entitlements:
        counts = try EntitlementCSVReader().read(
          source: source, displayName: name, fileIndex: fileIndex, rejects: rejects
        ) {
          rows.add(entitlement: $0)
        }
      case .credentials:
        counts = try CredentialCSVReader().read(
          source: source, displayName: name, fileIndex: fileIndex, rejects: rejects
        ) {
          rows.add(credential: $0)
        }
      case .assignments:
        counts = try AssignmentCSVReader().read(
          source: source, displayName: name, fileIndex: fileIndex, rejects: rejects
        ) {
          rows.assignments.append($0)
        }
      case .goodwill:
        counts = try GoodwillCSVReader().read(
          source: source, displayName: name, fileIndex: fileIndex, rejects: rejects
        ) {
          rows.add(goodwill: $0)
        }
      case .credits:
        var credits = rows.credits ?? []
        counts = try CreditCSVReader().read(
          source: source, displayName: name, fileIndex: fileIndex, rejects: rejects
        ) {
          rows.add(credit: $0, to: &credits)
        }
        rows.credits = credits
      case .notifications:
        let reader = notifications ?? NotificationCSVReader.undecoded
        counts = try reader.read(source: source, displayName: name, fileIndex: fileIndex, rejects: rejects) {
          rows.add($0)
        }
      }
      return (counts, source.bytes)
    } catch {
      if let failure = source.failure { throw failure.databaseError(name) }
      source.close()
      throw DatabaseError(.dataError, error.description)
    }
  }
}
