/// What the run read from one input file: for the manifest and the summary.
public struct InputReport: Sendable {
  /// `app_store.transactions`, `play.sales`, `play.subscriptions`, `play.voided`, `app.entitlements`, …
  public var role: String
  /// The path as the config names it (relative to the config).
  public var path: String
  /// Size on disk in bytes.
  public var bytes: Int64 = 0
  /// SHA-256 of the file as stored, hex.
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
