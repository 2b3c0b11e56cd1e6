/// Where a run keeps its run history (docs/history.md): a PostgreSQL database or an embedded SQLite file.
package enum HistoryLocation: Sendable, Equatable, CustomStringConvertible {
  /// A PostgreSQL connection string.
  case postgres(String)
  /// The path of a SQLite file.
  case sqlite(String)

  /// The file name of the default SQLite history, in the report root.
  package static let defaultFileName = "history.sqlite"

  /// Whether `text` names a PostgreSQL database (`postgresql://…`, `postgres://…`) rather than a file.
  package static func isPostgresURI(_ text: String) -> Bool {
    text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
  }

  /// Where the history of a run with `config` is: the config's `history` key when it has one; else
  /// PostgreSQL on `databaseURI` when the app's rows come from a database (`--database`,
  /// `app.database`, `STORERECON_DATABASE_URL`); else `history.sqlite` in `reportRoot`, the folder that
  /// holds the per-date report folders. Every command that opens the history resolves it here.
  package static func resolve(config: RunConfig, databaseURI: String?, reportRoot: String) -> HistoryLocation
  {
    if let configured = config.history { return configured }
    if let databaseURI { return .postgres(databaseURI) }
    return .sqlite(reportRoot == "/" ? "/" + defaultFileName : reportRoot + "/" + defaultFileName)
  }

  /// The report root of a run writing into `out`: the folder that holds it (`reports` for the default
  /// `reports/<date>`; `.` for an `--out` without a folder).
  package static func reportRoot(ofOut out: String) -> String {
    var path = Substring(out)
    while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let parent = path[..<slash]
    return parent.isEmpty ? "/" : String(parent)
  }

  package var description: String {
    switch self {
    case .postgres(let uri): return uri
    case .sqlite(let path): return path
    }
  }
}

extension ReconciliationRun.Setup {
  /// Where this run's history is (``HistoryLocation/resolve(config:databaseURI:reportRoot:)``, with the
  /// report root the folder holding `out`).
  package var historyLocation: HistoryLocation {
    HistoryLocation.resolve(
      config: config, databaseURI: databaseURI, reportRoot: HistoryLocation.reportRoot(ofOut: out))
  }
}
