extension PostgresConnection {
  /// The limits of the contract queries' read-only transaction. Each applies only where the session
  /// has none of its own: a role's `ALTER ROLE … SET statement_timeout`, the connection string's
  /// `options=-c statement_timeout=…` or `PGOPTIONS` set a value that is kept.
  package struct SnapshotLimits: Sendable, Equatable {
    /// `statement_timeout` of each contract query, in milliseconds (default 10 minutes).
    package var statementTimeoutMs: Int
    /// `idle_in_transaction_session_timeout` while the snapshot is open, in milliseconds (default 5
    /// minutes): a run that stops reading ends its session, and its snapshot, on the server. The time
    /// after the last query until the snapshot ends (the input files' checksums finishing) counts.
    package var idleInTransactionTimeoutMs: Int

    /// The defaults.
    package static let standard = SnapshotLimits(
      statementTimeoutMs: 600_000, idleInTransactionTimeoutMs: 300_000)

    /// Limits of the given milliseconds.
    package init(statementTimeoutMs: Int, idleInTransactionTimeoutMs: Int) {
      self.statementTimeoutMs = statementTimeoutMs
      self.idleInTransactionTimeoutMs = idleInTransactionTimeoutMs
    }
  }

  /// Opens the one transaction every contract query runs in: `READ ONLY` (a query that writes fails
  /// with SQLSTATE 25006, rolled back) at `REPEATABLE READ` (all queries see one snapshot), with
  /// `limits` set for the transaction only (`SET LOCAL`), where the session sets none itself.
  package func beginReadOnlySnapshot(_ limits: SnapshotLimits = .standard) throws(PostgresError) {
    guard !inReadOnlySnapshot else { return }
    try execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    inReadOnlySnapshot = true
    try execute(
      """
      SELECT set_config('statement_timeout',
          CASE WHEN current_setting('statement_timeout') = '0' THEN $1 ELSE current_setting('statement_timeout') END,
          true),
        set_config('idle_in_transaction_session_timeout',
          CASE WHEN current_setting('idle_in_transaction_session_timeout') = '0' THEN $2
            ELSE current_setting('idle_in_transaction_session_timeout') END,
          true)
      """, ["\(limits.statementTimeoutMs)ms", "\(limits.idleInTransactionTimeoutMs)ms"])
  }

  /// Ends the read-only snapshot (a COMMIT, which writes nothing); statements after it, such as the
  /// run history's, run outside it with the session's own settings. Does nothing when none is open.
  package func endReadOnlySnapshot() throws(PostgresError) {
    guard inReadOnlySnapshot else { return }
    inReadOnlySnapshot = false
    try execute("COMMIT")
  }
}
