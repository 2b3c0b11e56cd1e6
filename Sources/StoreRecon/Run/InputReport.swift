/// What the run read from one input file: for the manifest and the summary.
public struct InputReport: Sendable {
  /// `app_store.transactions`, `play.sales`, `play.subscriptions`, `play.voided`, `app.entitlements`, …
  public var role: String
  /// The path as the config names it (relative to the config); for a database input, the query file.
  public var path: String
  /// For an input read from PostgreSQL: the database (`user@host:port/db`, never a password).
  public var database: String?
  /// For a database input: whether the query is the copy built into the binary.
  public var builtInQuery = false
  /// Size on disk in bytes (for a database input: of the query text).
  public var bytes: Int64 = 0
  /// SHA-256 of the file as stored, hex (for a database input: of the query text).
  public var sha256 = ""
  /// Row counts: read = accepted + rejected.
  public var counts = InputCounts()
  /// Set when the file as a whole could not be read (the run went on without it).
  public var error: String?
  /// Rejects file, relative to the output folder.
  public var rejectsFile: String
  /// Milliseconds spent reading it.
  public var elapsedMs: Int64 = 0
  /// Earliest and latest record instant (store inputs).
  public var firstAt: Instant?
  public var lastAt: Instant?
}
