/// What the run read from one input file: for the manifest and the summary.
package struct InputReport: Sendable {
  /// `app_store.transactions`, `play.sales`, `play.subscriptions`, `play.voided`, `app.entitlements`, …
  package var role: String
  /// The path as the config names it (relative to the config); for a database input, the query file.
  package var path: String
  /// For an input read from PostgreSQL: the database (`user@host:port/db`, never a password).
  package var database: String?
  /// For a database input: whether the query is the copy built into the binary.
  package var builtInQuery = false
  /// Size on disk in bytes (for a database input: of the query text).
  package var bytes: Int64 = 0
  /// SHA-256 of the file as stored, hex (for a database input: of the query text).
  package var sha256 = ""
  /// Row counts: read = accepted + rejected.
  package var counts = InputCounts()
  /// Records of this input counted once already (read before, here or in another input), and those
  /// left out for a later state of themselves: read = accepted + rejected + duplicates + superseded.
  package var duplicates = 0
  package var superseded = 0
  /// Set when the file as a whole could not be read (the run went on without it).
  package var error: String?
  /// For a store money report that holds less than a whole period — a Summary Sales day or earnings
  /// month with a header and no rows, a Financial report cut before its `Total_` trailer — why its
  /// period is not tied out; the run is then INCOMPLETE (docs/tieout.md#a-report-that-shrinks-to-nothing).
  package var incomplete: String?
  /// Rejects file, relative to the output folder.
  package var rejectsFile: String
  /// Milliseconds spent reading it.
  package var elapsedMs: Int64 = 0
  /// Earliest and latest record instant (store inputs).
  package var firstAt: Instant?
  package var lastAt: Instant?
  /// For App Store transactions: how signatures were treated (`verify`, `require`, `off`; with
  /// `+ test root` when a test root was trusted too), and the accepted lines no signature was verified
  /// for (decoded JSON lines; every line when `off`). `nil` for other inputs.
  package var signatures: String?
  package var unverified: Int?
  /// For App Store transactions: accepted transactions without a price (unpriced charges).
  package var unpriced: Int?

  /// Creates the value from its fields.
  package init(
    role: String, path: String, database: String? = nil, bytes: Int64 = 0,
    counts: InputCounts = InputCounts(), error: String? = nil, rejectsFile: String, elapsedMs: Int64 = 0,
    firstAt: Instant? = nil, lastAt: Instant? = nil
  ) {
    self.role = role
    self.path = path
    self.database = database
    self.bytes = bytes
    self.counts = counts
    self.error = error
    self.rejectsFile = rejectsFile
    self.elapsedMs = elapsedMs
    self.firstAt = firstAt
    self.lastAt = lastAt
  }
}
